import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An AsyncLocalStorage switched off whenever none of its runs is open: on Node 20 an enabled one keeps async hooks on
 * for every promise of the process, get-client's a fifth of its rate (BENCHMARKS.md).
 */
export class RunScopedStorage<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private openRuns = 0;

  getStore(): T | undefined {
    return this.openRuns === 0 ? undefined : this.storage.getStore();
  }

  async run<R>(store: T, work: () => Promise<R>): Promise<R> {
    this.openRuns += 1;
    try {
      return await this.storage.run(store, work);
    } finally {
      this.openRuns -= 1;
      // Only when no run is open: disable() takes the store from every context still linked to it.
      if (this.openRuns === 0) this.storage.disable();
    }
  }
}
