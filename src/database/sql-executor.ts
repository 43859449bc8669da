import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'mysql2';
import { DataSource } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { DATABASE_TIMEOUT_MS } from './database-options';

export type SqlValue = string | number | boolean | null;

/** What an INSERT reports. */
export interface InsertResult {
  insertId: number;
}

/**
 * The one way repositories reach the database. MySQL: prepared statements (mysql2 `execute`, cached per connection) on
 * TypeORM's own pool, bounded by the driver timeout, rows as plain objects with no entity hydration. SQLite: a TypeORM
 * query runner per statement, released after it (better-sqlite3 caches the prepared statements itself).
 */
@Injectable()
export class SqlExecutor {
  private readonly pool?: Pool;
  private inFlight = 0;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    if (dataSource.driver instanceof MysqlDriver) this.pool = dataSource.driver.pool as Pool;
  }

  /**
   * Statements sent and not answered yet: at most the pool's size run at once on MySQL, more wait for a connection
   * (the db_queries_in_flight gauge). Counted here because mysql2 has no public count of its busy connections.
   */
  get queriesInFlight(): number {
    return this.inFlight;
  }

  /** Rows of a SELECT. */
  query<T>(sql: string, values: SqlValue[] = []): Promise<T[]> {
    return this.counted(() => (this.pool ? execute<T[]>(this.pool, sql, values) : this.dataSource.query<T[]>(sql, values)));
  }

  /** Runs an INSERT and answers the new row's id. */
  insert(sql: string, values: SqlValue[]): Promise<number> {
    return this.counted(async () => {
      if (this.pool) return (await execute<InsertResult>(this.pool, sql, values)).insertId;
      const runner = this.dataSource.createQueryRunner();
      try {
        // The structured result of better-sqlite3 carries the new rowid as `raw`.
        return Number((await runner.query(sql, values, true)).raw);
      } finally {
        await runner.release();
      }
    });
  }

  private async counted<T>(statement: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await statement();
    } finally {
      this.inFlight--;
    }
  }

  /** Whether the database answers at all (the health check). */
  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }
}

function execute<T>(pool: Pool, sql: string, values: SqlValue[]): Promise<T> {
  return new Promise((resolve, reject) => {
    pool.execute({ sql, values, timeout: DATABASE_TIMEOUT_MS }, (error: Error | null, result: unknown) =>
      error ? reject(error) : resolve(result as T),
    );
  });
}
