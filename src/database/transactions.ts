import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { EntityManager } from 'typeorm';
import { RegistryDataSource } from './registry-data-source';

export type SqlValue = string | number | boolean | null;

/** One statement of a script, its values through placeholders, never in its text. */
export interface ScriptStatement {
  sql: string;
  values: SqlValue[];
  /** Run once the script's transaction (or the one it joins) is committed: see Transactions.afterCommit(). */
  afterCommit?: () => void;
}

/** What a write reports: the rows it changed and, for an INSERT, the new row's id. */
export interface WriteResult {
  affectedRows: number;
  insertId: number;
}

/** A transaction open in the current call: its manager, and what to do once it is committed. */
interface OpenTransaction {
  manager: EntityManager;
  afterCommit: Array<() => void>;
}

/**
 * TypeORM's DataSource.transaction, made ambient: whatever a repository runs inside `run()`'s work, through `manager`,
 * joins the transaction, so a request wrapped whole in one (Idempotency-Key) takes its repositories' writes with it.
 * Also what TypeORM lacks: callbacks after the commit (cache invalidation, the outbox relay's wake-up), and on SQLite a
 * transaction that holds the one connection until it ends (SqliteTurns).
 *
 * The ambient transaction lives in an AsyncLocalStorage entered only by transactions: on Node 20 its first run() turns
 * async hooks on for the whole process, a cost the hot path (get-client, no transaction) should not pay for every
 * request, as a request-scoped store (nestjs-cls) would have it.
 */
@Injectable()
export class Transactions {
  private readonly open = new AsyncLocalStorage<OpenTransaction>();

  constructor(@InjectDataSource() private readonly dataSource: RegistryDataSource) {}

  /** The manager of the transaction the current call runs in, else the data source's. */
  get manager(): EntityManager {
    return this.open.getStore()?.manager ?? this.dataSource.manager;
  }

  /** Which SQL the database speaks, for the few statements written differently for each. */
  get dialect(): 'mysql' | 'sqlite' {
    return this.dataSource.sqliteTurns ? 'sqlite' : 'mysql';
  }

  /**
   * A statement written as SQL, on a hot path (get-client's miss, a resolution and its audit entry): outside a
   * transaction on MySQL, a prepared statement (RegistryDataSource.prepared); else through the current manager.
   * Answers a SELECT's rows.
   */
  sql<T>(sql: string, values: unknown[]): Promise<T[]> {
    const open = this.open.getStore();
    if (open || this.dataSource.sqliteTurns) return (open?.manager ?? this.dataSource.manager).query<T[]>(sql, values);
    return this.dataSource.prepared<T>(sql, values);
  }

  /** Whether the current call runs inside a transaction (whose statements cannot be retried one by one). */
  get active(): boolean {
    return this.open.getStore() !== undefined;
  }

  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws (the error is rethrown).
   * Inside another transaction, `work` joins it.
   */
  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const open = this.open.getStore();
    if (open) return work(open.manager);
    return this.begin(work, true);
  }

  /**
   * A transaction only the manager handed to `work` takes part in: what `work` runs through `manager` runs outside it.
   * For a background task that passes its manager explicitly (the outbox relay, every second), which should not switch
   * async hooks on. Not from inside another transaction on SQLite, whose connection it holds.
   */
  isolated<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.begin(work, false);
  }

  /**
   * Runs `callback` once what was just written is committed: at once outside a transaction, after the commit inside one
   * (nothing, should it roll back). Cache invalidations go through it, so no instance reloads a row before it changed.
   */
  afterCommit(callback: () => void): void {
    const open = this.open.getStore();
    if (open) open.afterCommit.push(callback);
    else callback();
  }

  private async begin<T>(work: (manager: EntityManager) => Promise<T>, ambient: boolean): Promise<T> {
    const afterCommit: Array<() => void> = [];
    const transaction = () =>
      this.dataSource.transaction((manager) => (ambient ? this.open.run({ manager, afterCommit }, () => work(manager)) : work(manager)));
    const turns = this.dataSource.sqliteTurns;
    const result = await (turns ? turns.holding(transaction) : transaction());
    afterCommit.forEach((callback) => callback());
    return result;
  }
}
