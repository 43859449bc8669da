import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { EntityManager } from 'typeorm';
import { RegistryDataSource } from './registry-data-source';

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
}

// Entered only by transactions: on Node 20 its first run() turns async hooks on for the whole process (docs/architecture.md).
@Injectable()
export class Transactions {
  private readonly open = new AsyncLocalStorage<OpenTransaction>();

  constructor(@InjectDataSource() private readonly dataSource: RegistryDataSource) {}

  get manager(): EntityManager {
    return this.open.getStore()?.manager ?? this.dataSource.manager;
  }

  get dialect(): 'mysql' | 'sqlite' {
    return this.dataSource.sqliteTurns ? 'sqlite' : 'mysql';
  }

  // Outside a transaction on MySQL, a prepared statement: it is on the hot paths (get-client's miss, a resolution).
  sql<T>(sql: string, values: unknown[]): Promise<T[]> {
    const open = this.open.getStore();
    if (open || this.dataSource.sqliteTurns) return (open?.manager ?? this.dataSource.manager).query<T[]>(sql, values);
    return this.dataSource.prepared<T>(sql, values);
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
