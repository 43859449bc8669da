import { AsyncLocalStorage } from 'node:async_hooks';
import { RunScopedStorage } from './run-scoped-storage';

describe('RunScopedStorage', () => {
  afterEach(() => jest.restoreAllMocks());

  it('should keep each open run its own store while another ends, and none outside', async () => {
    const storage = new RunScopedStorage<string>();
    let endFirst: () => void = () => undefined;
    const seen: Array<string | undefined> = [];
    const first = storage.run('first', async () => {
      await new Promise<void>((resolve) => (endFirst = resolve));
      seen.push(storage.getStore());
    });
    await storage.run('second', async () => {
      await Promise.resolve();
      seen.push(storage.getStore());
    });
    seen.push(storage.getStore());
    endFirst();
    await first;
    seen.push(storage.getStore());
    expect(seen).toEqual(['second', undefined, 'first', undefined]);
  });

  it('should switch the AsyncLocalStorage off once its last open run ends, and not before', async () => {
    const disable = jest.spyOn(AsyncLocalStorage.prototype, 'disable');
    const storage = new RunScopedStorage<number>();
    let endFirst: () => void = () => undefined;
    const first = storage.run(1, () => new Promise<void>((resolve) => (endFirst = resolve)));
    await storage.run(2, () => Promise.resolve());
    expect(disable).not.toHaveBeenCalled();
    endFirst();
    await first;
    expect(disable).toHaveBeenCalledTimes(1);
  });

  it('should switch it off after a run that failed as well', async () => {
    const disable = jest.spyOn(AsyncLocalStorage.prototype, 'disable');
    const storage = new RunScopedStorage<number>();
    await expect(storage.run(1, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(disable).toHaveBeenCalledTimes(1);
    expect(storage.getStore()).toBeUndefined();
  });
});
