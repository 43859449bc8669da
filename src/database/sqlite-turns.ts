import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { RunScopedStorage } from './run-scoped-storage';
import { StatementTally } from './statement-tally';

// A statement sent while another caller's transaction is open on the one connection would be rolled back with it.
export class SqliteTurns {
  private last: Promise<unknown> = Promise.resolve();
  private readonly holder = new RunScopedStorage<true>();

  holding<T>(work: () => Promise<T>): Promise<T> {
    if (this.holder.getStore()) return work();
    return this.next(() => this.holder.run(true, work));
  }

  statement<T>(run: () => Promise<T>): Promise<T> {
    return this.holder.getStore() ? run() : this.next(run);
  }

  /**
   * The manager of SQLite's one query runner, every statement of which takes its turn and is counted: TypeORM awaits no
   * hook before a SQLite statement, tells its subscribers nothing of one that failed, and nobody of one SQLite refuses to
   * prepare. Its transactions run on it too.
   */
  managerTakingTurns(dataSource: DataSource, statements: StatementTally): EntityManager {
    const runner = dataSource.createQueryRunner();
    const query = (sql: string, values?: unknown[], structured?: boolean): Promise<unknown> =>
      statements.counted(() => this.statement(() => (structured ? runner.query(sql, values, true) : runner.query(sql, values))));
    // The runner itself, seen through: TypeORM's own calls of query() from its methods take the turn as well.
    const takingTurns: QueryRunner = new Proxy(runner, {
      get: (target, key, receiver): unknown => (key === 'query' ? query : key === 'manager' ? manager : Reflect.get(target, key, receiver)),
    });
    const manager = dataSource.createEntityManager(takingTurns);
    return manager;
  }

  private next<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.last.then(work);
    this.last = turn.catch(() => undefined);
    return turn;
  }
}
