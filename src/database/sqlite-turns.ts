import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * better-sqlite3 has one connection, and TypeORM one query runner over it: a statement sent while another caller's
 * transaction is open would become part of it, and be rolled back with it. So a transaction holds the turn until it
 * ends, the statements sent from within it go at once, and every other statement waits for a turn of its own.
 */
export class SqliteTurns {
  private last: Promise<unknown> = Promise.resolve();
  private readonly holder = new AsyncLocalStorage<true>();

  /** Runs `work` holding the turn (from inside a holder, at once: it holds it already). */
  holding<T>(work: () => Promise<T>): Promise<T> {
    if (this.holder.getStore()) return work();
    return this.next(() => this.holder.run(true, work));
  }

  /** Runs one statement in its turn, or at once from inside the holder. */
  statement<T>(run: () => Promise<T>): Promise<T> {
    return this.holder.getStore() ? run() : this.next(run);
  }

  private next<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.last.then(work);
    this.last = turn.catch(() => undefined);
    return turn;
  }
}
