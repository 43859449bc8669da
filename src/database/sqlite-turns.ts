import { AsyncLocalStorage } from 'node:async_hooks';

// A statement sent while another caller's transaction is open on the one connection would be rolled back with it.
export class SqliteTurns {
  private last: Promise<unknown> = Promise.resolve();
  private readonly holder = new AsyncLocalStorage<true>();

  holding<T>(work: () => Promise<T>): Promise<T> {
    if (this.holder.getStore()) return work();
    return this.next(() => this.holder.run(true, work));
  }

  statement<T>(run: () => Promise<T>): Promise<T> {
    return this.holder.getStore() ? run() : this.next(run);
  }

  private next<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.last.then(work);
    this.last = turn.catch(() => undefined);
    return turn;
  }
}
