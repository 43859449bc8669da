import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool, ResultSetHeader } from 'mysql2';
import { DataSource } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { DATABASE_TIMEOUT_MS } from './database-options';

type Values = Array<string | number | boolean | null>;

const ER_LOCK_DEADLOCK = 1213;
/** Inserts InnoDB keeps choosing as a deadlock victim, before the error is answered (503). */
export const DEADLOCK_ATTEMPTS = 5;

/**
 * Hot-path SQL. MySQL: prepared statements (mysql2 execute, cached per connection) on TypeORM's own pool,
 * rows as plain objects with no entity hydration. SQLite: TypeORM's query(), whose better-sqlite3 statements
 * are prepared and cached already.
 */
export class PreparedStatements {
  private readonly pool?: Pool;

  constructor(private readonly dataSource: DataSource) {
    if (dataSource.driver instanceof MysqlDriver) this.pool = dataSource.driver.pool as Pool;
  }

  get isMysql(): boolean {
    return this.pool !== undefined;
  }

  /** Rows of a SELECT (or the result header of a write, on MySQL). */
  query<T>(sql: string, values: Values): Promise<T[]> {
    if (!this.pool) return this.dataSource.query(sql, values);
    return execute<T[]>(this.pool, sql, values);
  }

  /**
   * Inserts one row and answers its id. On MySQL, a deadlock victim was rolled back whole, so the insert is made
   * again, after a short random pause that lets the winner commit.
   */
  async insert(sql: string, values: Values): Promise<number> {
    if (!this.pool) {
      // SQLite: TypeORM shares one connection between all callers there; a query runner's result carries the new id.
      const result = await this.dataSource.createQueryRunner().query(sql, values, true);
      return Number(result.raw);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return (await execute<ResultSetHeader>(this.pool, sql, values)).insertId;
      } catch (error) {
        if (attempt >= DEADLOCK_ATTEMPTS || (error as { errno?: number }).errno !== ER_LOCK_DEADLOCK) throw error;
        await sleep(Math.random() * 2 * attempt);
      }
    }
  }
}

function execute<T>(pool: Pool, sql: string, values: Values): Promise<T> {
  return new Promise((resolve, reject) => {
    pool.execute({ sql, values, timeout: DATABASE_TIMEOUT_MS }, (error: Error | null, result: unknown) =>
      error ? reject(error) : resolve(result as T),
    );
  });
}
