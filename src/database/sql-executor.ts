import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolConnection, ResultSetHeader } from 'mysql2';
import { DataSource, QueryRunner } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { withTimeout } from '../common/timeout';
import { DATABASE_TIMEOUT_MS } from './database-timeout';

export type SqlValue = string | number | boolean | null;

/** What a write reports: the rows it changed and, for an INSERT, the new row's id. */
export interface WriteResult {
  affectedRows: number;
  insertId: number;
}

/** One statement of a script (SqlExecutor.script). */
export interface SqlStatement {
  sql: string;
  values: SqlValue[];
  /** Run once the script's transaction (or the one it joins) is committed: see afterCommit(). */
  afterCommit?: () => void;
}

export type SqlDialect = 'mysql' | 'sqlite';

/** An open transaction: its statements, and what to do once it is committed. */
interface OpenTransaction {
  statements: SqlStatements;
  afterCommit: Array<() => void>;
}

/** Told how each statement ended: /health keeps the database's state from real traffic instead of a query per call. */
export interface StatementOutcomeObserver {
  succeeded(): void;
  failed(error: unknown): void;
}

/** The statements a repository runs, alone or inside a transaction. */
export interface SqlStatements {
  /** Rows of a SELECT. */
  query<T>(sql: string, values?: SqlValue[]): Promise<T[]>;
  /** An INSERT, UPDATE or DELETE. */
  execute(sql: string, values: SqlValue[]): Promise<WriteResult>;
}

/**
 * The one way repositories reach the database. MySQL: prepared statements (mysql2 `execute`, cached per connection) on
 * TypeORM's own pool, bounded by the driver timeout, rows as plain objects with no entity hydration; a transaction holds
 * one connection of the pool. SQLite: one connection for everything, so statements take turns (see onSqlite); a query
 * runner per turn, released after it (better-sqlite3 caches the prepared statements itself).
 */
@Injectable()
export class SqlExecutor implements SqlStatements {
  private readonly pool?: Pool;
  private inFlight = 0;
  private outcomeObserver?: StatementOutcomeObserver;
  private sqliteTurn: Promise<unknown> = Promise.resolve();
  /**
   * The transaction the current call runs in, if any: every statement issued inside transaction()'s work joins it, so
   * a request wrapped whole in a transaction (Idempotency-Key) takes its repositories' writes with it.
   */
  private readonly openTransaction = new AsyncLocalStorage<OpenTransaction>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    if (dataSource.driver instanceof MysqlDriver) this.pool = dataSource.driver.pool as Pool;
  }

  /** Which SQL the database speaks, for the few statements written differently for each. */
  get dialect(): SqlDialect {
    return this.pool ? 'mysql' : 'sqlite';
  }

  /**
   * Statements sent and not answered yet: at most the pool's size run at once on MySQL, more wait for a connection
   * (the db_queries_in_flight gauge). Counted here because mysql2 has no public count of its busy connections.
   */
  get queriesInFlight(): number {
    return this.inFlight;
  }

  query<T>(sql: string, values: SqlValue[] = []): Promise<T[]> {
    const open = this.openTransaction.getStore();
    if (open) return open.statements.query<T>(sql, values);
    if (this.pool) return this.counted(() => execute<T[]>(this.pool!, sql, values));
    return this.onSqlite((runner) => sqliteStatements(runner, this).query<T>(sql, values));
  }

  execute(sql: string, values: SqlValue[]): Promise<WriteResult> {
    const open = this.openTransaction.getStore();
    if (open) return open.statements.execute(sql, values);
    if (this.pool) return this.counted(async () => writeResultOf(await execute<ResultSetHeader>(this.pool!, sql, values)));
    return this.onSqlite((runner) => sqliteStatements(runner, this).execute(sql, values));
  }

  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws (the error is rethrown).
   * Inside another transaction, `work` joins it.
   */
  transaction<T>(work: (statements: SqlStatements) => Promise<T>): Promise<T> {
    const open = this.openTransaction.getStore();
    if (open) return work(open.statements);
    return this.newTransaction(work, true);
  }

  /**
   * A transaction only the statements handed to `work` take part in: what `work` calls through this executor runs
   * outside it. For a background task that passes its statements explicitly (the outbox relay, every second): on Node 20
   * the first AsyncLocalStorage run() switches async hooks on for the whole process, a cost requests should not pay
   * for it. Not from inside another transaction on SQLite, whose statements take turns.
   */
  isolatedTransaction<T>(work: (statements: SqlStatements) => Promise<T>): Promise<T> {
    return this.newTransaction(work, false);
  }

  private async newTransaction<T>(work: (statements: SqlStatements) => Promise<T>, ambient: boolean): Promise<T> {
    const within = (transaction: OpenTransaction) =>
      ambient ? this.openTransaction.run(transaction, () => work(transaction.statements)) : work(transaction.statements);
    if (!this.pool) {
      return this.onSqlite(async (runner) => {
        await runner.startTransaction();
        const transaction: OpenTransaction = { statements: sqliteStatements(runner, this), afterCommit: [] };
        try {
          const result = await within(transaction);
          await runner.commitTransaction();
          transaction.afterCommit.forEach((callback) => callback());
          return result;
        } catch (error) {
          await runner.rollbackTransaction();
          throw error;
        }
      });
    }
    const connection = await acquire(this.pool);
    try {
      await this.counted(() => command(connection, 'START TRANSACTION'));
      const transaction: OpenTransaction = {
        statements: {
          query: <R>(sql: string, values: SqlValue[] = []) => this.counted(() => execute<R[]>(connection, sql, values)),
          execute: (sql, values) => this.counted(async () => writeResultOf(await execute<ResultSetHeader>(connection, sql, values))),
        },
        afterCommit: [],
      };
      const result = await within(transaction);
      await this.counted(() => command(connection, 'COMMIT'));
      connection.release();
      transaction.afterCommit.forEach((callback) => callback());
      return result;
    } catch (error) {
      // A connection whose rollback fails (it timed out, the server went) is not given back to the pool.
      await command(connection, 'ROLLBACK').then(
        () => connection.release(),
        () => connection.destroy(),
      );
      throw error;
    }
  }

  /**
   * Runs the statements as one transaction, in one round trip on MySQL (a multi-statement text query: each round trip
   * costs the service a socket write and read, a third of an add's time when there were four): all are committed, or,
   * one failing, none is. Later statements decide from earlier ones in SQL (MySQL's ROW_COUNT(), SQLite's changes()).
   * Answers each statement's WriteResult. Values go through placeholders, never into the text.
   */
  async script(statements: SqlStatement[]): Promise<WriteResult[]> {
    if (!this.pool || this.openTransaction.getStore()) {
      return this.transaction(async (transaction) => {
        const results: WriteResult[] = [];
        for (const { sql, values, afterCommit } of statements) {
          results.push(await transaction.execute(sql, values));
          if (afterCommit) this.afterCommit(afterCommit);
        }
        return results;
      });
    }
    const connection = await acquire(this.pool);
    const sql = ['START TRANSACTION', ...statements.map((statement) => statement.sql), 'COMMIT'].join(';\n');
    try {
      const results = await this.counted(() =>
        textQuery<ResultSetHeader[]>(
          connection,
          sql,
          statements.flatMap((statement) => statement.values),
        ),
      );
      connection.release();
      for (const { afterCommit } of statements) afterCommit?.();
      return results.slice(1, -1).map(writeResultOf);
    } catch (error) {
      // MySQL stops at the failing statement: the transaction is still open on this connection, which must not go back so.
      await command(connection, 'ROLLBACK').then(
        () => connection.release(),
        () => connection.destroy(),
      );
      throw error;
    }
  }

  /** Whether the current call runs inside a transaction (whose statements cannot be retried one by one). */
  get inTransaction(): boolean {
    return this.openTransaction.getStore() !== undefined;
  }

  /**
   * Runs `callback` once what was just written is committed: at once outside a transaction, after the commit inside one
   * (nothing, should it roll back). Cache invalidations go through it, so no instance reloads a row before it changed.
   */
  afterCommit(callback: () => void): void {
    const open = this.openTransaction.getStore();
    if (open) open.afterCommit.push(callback);
    else callback();
  }

  /** Whether the database answers at all (the health check). */
  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  observeStatements(observer: StatementOutcomeObserver): void {
    this.outcomeObserver = observer;
  }

  /** Counts one statement in flight while it runs, and tells the observer how it ended. */
  counted<T>(statement: () => Promise<T>): Promise<T> {
    this.inFlight++;
    return statement().then(
      (result) => {
        this.inFlight--;
        this.outcomeObserver?.succeeded();
        return result;
      },
      (error: unknown) => {
        this.inFlight--;
        this.outcomeObserver?.failed(error);
        throw error;
      },
    );
  }

  /**
   * SQLite has one connection for every query runner: a statement run while another request's transaction is open
   * would become part of it (and be rolled back with it). Every statement and transaction therefore takes its turn.
   */
  private onSqlite<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const turn = this.sqliteTurn.then(async () => {
      const runner = this.dataSource.createQueryRunner();
      try {
        return await work(runner);
      } finally {
        await runner.release();
      }
    });
    this.sqliteTurn = turn.catch(() => undefined);
    return turn;
  }
}

function sqliteStatements(runner: QueryRunner, counter: SqlExecutor): SqlStatements {
  return {
    query: <T>(sql: string, values: SqlValue[] = []) => counter.counted(() => runner.query(sql, values) as Promise<T[]>),
    execute: (sql, values) =>
      counter.counted(async () => {
        const result = await runner.query(sql, values, true);
        // better-sqlite3's structured result: the rows changed, and the new rowid as `raw`.
        return { affectedRows: result.affected ?? 0, insertId: Number(result.raw) };
      }),
  };
}

function writeResultOf(header: ResultSetHeader): WriteResult {
  return { affectedRows: header.affectedRows, insertId: header.insertId };
}

function execute<T>(target: Pool | PoolConnection, sql: string, values: SqlValue[]): Promise<T> {
  return new Promise((resolve, reject) => {
    target.execute({ sql, values, timeout: DATABASE_TIMEOUT_MS }, (error: Error | null, result: unknown) =>
      error ? reject(error) : resolve(result as T),
    );
  });
}

/** Transaction control, which is not a statement to prepare. */
function command(connection: PoolConnection, sql: string): Promise<void> {
  return textQuery(connection, sql, []).then(() => undefined);
}

/** The text protocol: values escaped into the text by mysql2's placeholders; several statements at once for script(). */
function textQuery<T>(connection: PoolConnection, sql: string, values: SqlValue[]): Promise<T> {
  return new Promise((resolve, reject) =>
    connection.query({ sql, values, timeout: DATABASE_TIMEOUT_MS }, (error: Error | null, result: unknown) =>
      error ? reject(error) : resolve(result as T),
    ),
  );
}

/** A connection of the pool for a transaction, within the database timeout; one that comes too late goes back. */
function acquire(pool: Pool): Promise<PoolConnection> {
  let timedOut = false;
  const connection = new Promise<PoolConnection>((resolve, reject) =>
    pool.getConnection((error, acquired) => {
      if (error) return reject(error);
      if (timedOut) return acquired.release();
      resolve(acquired);
    }),
  );
  return withTimeout(connection, DATABASE_TIMEOUT_MS, 'database').catch((error: unknown) => {
    timedOut = true;
    throw error;
  });
}
