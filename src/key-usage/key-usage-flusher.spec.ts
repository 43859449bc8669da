import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../config/app-config';
import { KeyUsageFlusher } from './key-usage-flusher';
import { KeyUsageNotes, KeyUse } from './key-usage-notes';
import { KeyUsageRepository } from './key-usage.repository';
import { keyUsageFlushFailures } from './key-usage.metrics';

const IP = '203.0.113.7';
const use = (usedAt: number): KeyUse => ({ shape: 'root', usedAt, ip: IP });

describe('KeyUsageFlusher', () => {
  const config = { get: () => 60_000 } as unknown as ConfigService<AppConfig, true>;
  let notes: KeyUsageNotes;
  let recordLastUses: jest.Mock<Promise<void>, [Map<string, KeyUse>]>;
  let flusher: KeyUsageFlusher;

  beforeEach(() => {
    notes = new KeyUsageNotes();
    recordLastUses = jest.fn<Promise<void>, [Map<string, KeyUse>]>().mockResolvedValue(undefined);
    flusher = new KeyUsageFlusher(notes, { recordLastUses } as unknown as KeyUsageRepository, config);
  });

  it('should write what was noted, once, and leave nothing behind', async () => {
    notes.note('a', 'root', IP, 10);
    notes.note('b', 'root', IP, 20);
    await flusher.flush();
    expect(recordLastUses).toHaveBeenCalledWith(
      new Map([
        ['a', use(10)],
        ['b', use(20)],
      ]),
    );
    expect(notes.size).toBe(0);
    await flusher.flush();
    expect(recordLastUses).toHaveBeenCalledTimes(1);
  });

  it('should keep the notes of a failed flush for the next one, count the failure, and never reject', async () => {
    const failuresBefore = (await keyUsageFlushFailures.get()).values[0]?.value ?? 0;
    notes.note('a', 'root', IP, 10);
    recordLastUses.mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    await expect(flusher.flush()).resolves.toBeUndefined();
    expect((await keyUsageFlushFailures.get()).values[0].value).toBe(failuresBefore + 1);
    notes.note('a', 'root', IP, 30);
    notes.note('b', 'root', IP, 5);
    await flusher.flush();
    expect(recordLastUses).toHaveBeenLastCalledWith(
      new Map([
        ['a', use(30)],
        ['b', use(5)],
      ]),
    );
  });

  it('should write once more at shutdown, and not overlap two flushes', async () => {
    let release!: () => void;
    recordLastUses.mockImplementationOnce(() => new Promise((resolve) => (release = () => resolve())));
    notes.note('a', 'root', IP, 10);
    const first = flusher.flush();
    while (recordLastUses.mock.calls.length === 0) await Promise.resolve();
    notes.note('b', 'root', IP, 20);
    const atShutdown = flusher.onApplicationShutdown();
    await new Promise((resolve) => setImmediate(resolve));
    expect(recordLastUses).toHaveBeenCalledTimes(1);
    release();
    await Promise.all([first, atShutdown]);
    expect(recordLastUses).toHaveBeenLastCalledWith(new Map([['b', use(20)]]));
  });
});
