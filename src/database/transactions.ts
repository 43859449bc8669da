import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolConnection } from 'mysql2';
import { DataSource, EntityManager } from 'typeorm';
import { MonotonicClock } from '../common/clock';
import { DATABASE_TIMEOUT_MS, ServiceUnavailableError } from '../common/errors/unavailable';
import { RunScopedStorage } from './run-scoped-storage';
import { SqliteTurns } from './sqlite-turns';
import { StatementTally } from './statement-tally';

export type SqlValue = string | number | boolean | null;

export interface ScriptStatement {
  sql: string;
  values: SqlValue[];
  afterCommit?: () => void;
}

export interface WriteResult {
  affectedRows: number;
  insertId: number;
}

interface OpenTransaction {
  manager: EntityManager;
  afterCommit: Array<() => void>;
  last: ScriptStatement[];
}

// No COMMIT is sent later than this after a transaction's last statements (the change sequence's lines, whose ids are
// handed out at insert): readers look for a missing id for 5 s of their reads (docs/operations.md).
export const COMMIT_WITHIN_MS = 3000;

@Injectable()
export class Transactions {
  // Entered only by transactions, and on Node 20 async hooks stay on only while one is open (docs/architecture.md).
  private readonly open = new RunScopedStorage<OpenTransaction>();
  // SQLite has one connection: a statement waits while another caller's transaction holds it.
  private readonly sqliteTurns?: SqliteTurns;
  // Outside a transaction; on SQLite the manager whose statements take their turns, and whose transactions hold them.
  private readonly outside: EntityManager;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly statements: StatementTally,
    private readonly clock: MonotonicClock = new MonotonicClock(),
  ) {
    if (dataSource.options.type === 'better-sqlite3') this.sqliteTurns = new SqliteTurns();
    this.outside = this.sqliteTurns ? this.sqliteTurns.managerTakingTurns(dataSource, statements) : dataSource.manager;
  }

  get manager(): EntityManager {
    return this.open.getStore()?.manager ?? this.outside;
  }

  get dialect(): 'mysql' | 'sqlite' {
    return this.sqliteTurns ? 'sqlite' : 'mysql';
  }

  // Outside a transaction on MySQL, a prepared statement: it is on the hot paths (get-client's miss, a resolution).
  sql<T>(sql: string, values: unknown[]): Promise<T[]> {
    const open = this.open.getStore();
    if (open || this.sqliteTurns) return (open?.manager ?? this.outside).query<T[]>(sql, values);
    return this.prepared<T>(sql, values);
  }

  // The health probe's statement, which reads nothing.
  async ping(): Promise<void> {
    await this.outside.query('SELECT 1');
  }

  get active(): boolean {
    return this.open.getStore() !== undefined;
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const open = this.open.getStore();
    if (open) return work(open.manager);
    return this.begin(work, true);
  }

  // For the outbox relay, so async hooks stay off; never inside another SQLite transaction, which holds the one connection.
  isolated<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.begin(work, false);
  }

  // Nothing, should it roll back: no instance reloads a row before it changed.
  afterCommit(callback: () => void): void {
    const open = this.open.getStore();
    if (open) open.afterCommit.push(callback);
    else callback();
  }

  /**
   * Sends the statement once the work is done, as the transaction's last, and the COMMIT within COMMIT_WITHIN_MS of
   * it, or rolls back and fails as unavailable. Its afterCommit runs once committed.
   */
  endWith(statement: ScriptStatement): void {
    const open = this.open.getStore();
    if (!open) throw new Error('endWith() outside a transaction');
    open.last.push(statement);
    if (statement.afterCommit) open.afterCommit.push(statement.afterCommit);
  }

  private async begin<T>(work: (manager: EntityManager) => Promise<T>, ambient: boolean): Promise<T> {
    const afterCommit: Array<() => void> = [];
    const last: ScriptStatement[] = [];
    const transaction = () =>
      this.outside.transaction(async (manager) => {
        const result = await (ambient ? this.open.run({ manager, afterCommit, last }, () => work(manager)) : work(manager));
        await this.sendLast(manager, last);
        return result;
      });
    const result = await (this.sqliteTurns ? this.sqliteTurns.holding(transaction) : transaction());
    afterCommit.forEach((callback) => callback());
    return result;
  }

  // TypeORM sends the COMMIT as soon as this returns.
  private async sendLast(manager: EntityManager, statements: ScriptStatement[]): Promise<void> {
    if (statements.length === 0) return;
    const sentAt = this.clock.now();
    for (const { sql, values } of statements) await manager.query(sql, values);
    const waited = Math.round(this.clock.now() - sentAt);
    if (waited > COMMIT_WITHIN_MS) {
      throw new ServiceUnavailableError(
        `the transaction's last statements answered after ${waited} ms: rolled back, not committed past ${COMMIT_WITHIN_MS} ms`,
      );
    }
  }

  // Prepared once per connection: TypeORM sends text, which the server parses at every call (docs/architecture.md).
  private async prepared<T>(sql: string, values: unknown[]): Promise<T[]> {
    const connection = (await this.dataSource.driver.obtainMasterConnection()) as PoolConnection;
    try {
      return await this.statements.counted(
        () =>
          new Promise<T[]>((resolve, reject) =>
            connection.execute({ sql, values, timeout: DATABASE_TIMEOUT_MS }, (error: Error | null, rows: unknown) =>
              error ? reject(error) : resolve(rows as T[]),
            ),
          ),
      );
    } finally {
      connection.release();
    }
  }
}
