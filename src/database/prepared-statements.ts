import type { Pool, PoolConnection, ResultSetHeader } from 'mysql2';
import { DataSource } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { DATABASE_TIMEOUT_MS } from './database-options';

type Values = Array<string | number | boolean | null>;

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

  /** MySQL only: runs `work` in a transaction on one pooled connection, committed before it resolves. */
  async transaction<T>(work: (connection: MysqlTransaction) => Promise<T>): Promise<T> {
    const pool = this.pool!;
    const connection = await new Promise<PoolConnection>((resolve, reject) =>
      pool.getConnection((error, acquired) => (error ? reject(error) : resolve(acquired))),
    );
    let broken = false;
    try {
      await execute(connection, 'START TRANSACTION', [], false);
      const transaction: MysqlTransaction = {
        query: (sql, values) => execute(connection, sql, values),
        insert: async (sql, values) => (await execute<ResultSetHeader>(connection, sql, values)).insertId,
      };
      try {
        const result = await work(transaction);
        await execute(connection, 'COMMIT', [], false);
        return result;
      } catch (error) {
        await execute(connection, 'ROLLBACK', [], false).catch(() => {
          broken = true;
        });
        throw error;
      }
    } catch (error) {
      if (isConnectionError(error)) broken = true;
      throw error;
    } finally {
      if (broken) connection.destroy();
      else connection.release();
    }
  }
}

export interface MysqlTransaction {
  query<T>(sql: string, values: Values): Promise<T[]>;
  /** Runs an INSERT; resolves with the generated id. */
  insert(sql: string, values: Values): Promise<number>;
}

function execute<T>(target: Pool | PoolConnection, sql: string, values: Values, prepare = true): Promise<T> {
  return new Promise((resolve, reject) => {
    const callback = (error: Error | null, result: unknown) => (error ? reject(error) : resolve(result as T));
    const options = { sql, values, timeout: DATABASE_TIMEOUT_MS };
    if (prepare) target.execute(options, callback);
    else target.query(options, callback);
  });
}

function isConnectionError(error: unknown): boolean {
  return Boolean((error as { fatal?: boolean } | null)?.fatal);
}
