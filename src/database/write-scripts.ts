import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolConnection, ResultSetHeader } from 'mysql2';
import { DataSource, DataSourceOptions, QueryResult } from 'typeorm';
import { DATABASE_TIMEOUT_MS } from '../common/errors/unavailable';
import { StatementTally } from './statement-tally';
import { ScriptStatement, Transactions, WriteResult } from './transactions';

// One round trip on MySQL: each costs a socket write and read, a third of an add's time when there were four.
@Injectable()
export class WriteScripts implements OnApplicationShutdown {
  private scriptSource?: Promise<DataSource>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: Transactions,
    private readonly statements: StatementTally,
  ) {}

  // `last`: what the change ends its transaction with (its lines in the change sequence: Transactions.endWith()); in one
  // round trip the server runs them and the COMMIT one after the other, with nothing to wait for in between.
  async run(statements: ScriptStatement[], last: ScriptStatement[] = []): Promise<WriteResult[]> {
    if (this.transactions.dialect === 'sqlite' || this.transactions.active) {
      return this.transactions.run(async (manager) => {
        const results: WriteResult[] = [];
        for (const { sql, values, afterCommit } of statements) {
          results.push(writeResultOf(await manager.queryRunner!.query(sql, values, true)));
          if (afterCommit) this.transactions.afterCommit(afterCommit);
        }
        last.forEach((statement) => this.transactions.endWith(statement));
        return results;
      });
    }
    const script = [...statements, ...last];
    const sql = ['START TRANSACTION', ...script.map((statement) => statement.sql), 'COMMIT'].join(';\n');
    // Straight on the pool's connection: the script is this class's own, with nothing for TypeORM to add.
    const connection = (await (await this.openScriptSource()).driver.obtainMasterConnection()) as PoolConnection;
    const headers = await this.statements.counted(async () => {
      try {
        const answered = await textQuery<ResultSetHeader[]>(
          connection,
          sql,
          script.flatMap((statement) => statement.values),
        );
        connection.release();
        return answered;
      } catch (error) {
        // MySQL stops at the failing statement: the transaction is still open on this connection, which must not go back so.
        await textQuery(connection, 'ROLLBACK', []).then(
          () => connection.release(),
          () => connection.destroy(),
        );
        throw error;
      }
    });
    for (const { afterCommit } of script) afterCommit?.();
    return headers
      .slice(1, 1 + statements.length)
      .map((header) => ({ affectedRows: header.affectedRows, insertId: Number(header.insertId) }));
  }

  async onApplicationShutdown(): Promise<void> {
    const source = await this.scriptSource?.catch(() => undefined);
    if (source?.isInitialized) await source.destroy();
  }

  private openScriptSource(): Promise<DataSource> {
    if (!this.scriptSource) {
      const options = { ...this.dataSource.options, entities: [], migrations: [], multipleStatements: true } as DataSourceOptions;
      // Its options carry the service's pool hooks (registry-data-source.ts): its waits are counted and bounded alike.
      const source = new DataSource(options);
      this.scriptSource = source.initialize().catch((error: unknown) => {
        this.scriptSource = undefined;
        throw error;
      });
    }
    return this.scriptSource;
  }
}

function textQuery<T>(connection: PoolConnection, sql: string, values: unknown[]): Promise<T> {
  return new Promise((resolve, reject) =>
    connection.query({ sql, values, timeout: DATABASE_TIMEOUT_MS }, (error: Error | null, result: unknown) =>
      error ? reject(error) : resolve(result as T),
    ),
  );
}

export function writeResultOf(result: QueryResult): WriteResult {
  const raw = result.raw as { insertId?: number } | number | bigint;
  return { affectedRows: result.affected ?? 0, insertId: Number(typeof raw === 'object' ? raw.insertId : raw) };
}
