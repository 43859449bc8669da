import type { PoolConnection } from 'mysql2';
import { DataSource, DataSourceOptions, QueryRunner, ReplicationMode } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { EntityMetadata } from 'typeorm/metadata/EntityMetadata';
import { withTimeout } from '../common/timeout';
import { DATABASE_TIMEOUT_MS } from './database-timeout';
import { SqliteTurns } from './sqlite-turns';
import { StatementTally } from './statement-tally';

/** On SQLite the outbox index holds only the unpublished entries (a partial index), which MySQL cannot make. */
const SQLITE_PARTIAL_INDEXES: Record<string, { columns: string[]; where: string }> = {
  IDX_audit_event_unpublished: { columns: ['id'], where: 'unpublished = 1' },
};

/**
 * The service's DataSource: TypeORM's, with the entities read as SQLite declares them. The entities state the MySQL
 * schema exactly (the production database); the SQLite migrations spell a few of those columns SQLite's way, which one
 * decorator cannot say for both dialects: CHAR(n) (a type SQLite takes but TypeORM's list lacks), TEXT for MEDIUMTEXT,
 * DATETIME without a fraction (SQLite keeps the text written), no character set or collation (SQLite compares bytes), INTEGER for the BIGINT key (AUTOINCREMENT needs it), NO
 * ACTION for RESTRICT, and the partial outbox index. Schema checks and generated migrations see each dialect as it is.
 *
 * Every statement of every query runner is counted (`statements`), and on SQLite takes its turn (`sqliteTurns`); on
 * MySQL none waits longer than the database timeout for a connection (boundConnectionWaits).
 */
export class RegistryDataSource extends DataSource {
  readonly statements = new StatementTally();
  readonly sqliteTurns?: SqliteTurns;
  private readonly watchedRunners = new WeakSet<QueryRunner>();

  constructor(options: DataSourceOptions) {
    super(options);
    if (this.isSqlite) {
      this.driver.supportedDataTypes.push('char', 'mediumtext');
      this.driver.withLengthColumnTypes.push('char');
      this.sqliteTurns = new SqliteTurns();
    }
    boundConnectionWaits(this);
  }

  /**
   * A statement (a SELECT's rows) as a MySQL prepared statement (mysql2's execute, prepared once per connection), counted and bounded
   * like every other: TypeORM sends text, which the server parses at every call (docs/architecture.md, the figures).
   */
  prepared<T>(sql: string, values: unknown[]): Promise<T[]> {
    return this.statements.counted(async () => {
      const connection = (await (this.driver as MysqlDriver).obtainMasterConnection()) as PoolConnection;
      try {
        return await new Promise<T[]>((resolve, reject) =>
          connection.execute({ sql, values, timeout: DATABASE_TIMEOUT_MS }, (error: Error | null, rows: unknown) =>
            error ? reject(error) : resolve(rows as T[]),
          ),
        );
      } finally {
        connection.release();
      }
    });
  }

  /** Whether the database answers at all (the health probe). */
  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  /** TypeORM's runner (on SQLite its one shared runner), its statements counted and, on SQLite, taking turns. */
  override createQueryRunner(mode?: ReplicationMode): QueryRunner {
    const runner = super.createQueryRunner(mode);
    if (this.watchedRunners.has(runner)) return runner;
    this.watchedRunners.add(runner);
    const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
    const turns = this.sqliteTurns;
    const statements = this.statements;
    const sent = turns
      ? (...args: unknown[]) => statements.counted(() => turns.statement(() => query(...args)))
      : (...args: unknown[]) => statements.counted(() => query(...args));
    runner.query = sent as QueryRunner['query'];
    return runner;
  }

  private get isSqlite(): boolean {
    return this.options.type === 'better-sqlite3';
  }

  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (this.isSqlite) this.entityMetadatas.forEach(asSqliteDeclaresIt);
  }
}

/**
 * mysql2's pool lets a statement wait for a free connection without end: here it waits at most the database timeout,
 * then fails (503), and does not run later; a connection that comes too late goes back to the pool.
 */
export function boundConnectionWaits(dataSource: DataSource): void {
  const driver = dataSource.driver;
  if (!(driver instanceof MysqlDriver)) return;
  const obtain = driver.obtainMasterConnection.bind(driver);
  driver.obtainMasterConnection = () => {
    let late = false;
    const connection = obtain().then((acquired: { release(): void }) => {
      if (late) acquired.release();
      return acquired;
    });
    return withTimeout(connection, DATABASE_TIMEOUT_MS, 'database').catch((error: unknown) => {
      late = true;
      throw error;
    });
  };
}

function asSqliteDeclaresIt(entity: EntityMetadata): void {
  for (const column of entity.columns) {
    if (column.type === 'mediumtext') column.type = 'text';
    if (column.type === 'datetime') column.precision = undefined;
    column.charset = undefined;
    column.collation = undefined;
    if (column.isGenerated && column.type === 'bigint') column.type = 'integer';
  }
  for (const foreignKey of entity.foreignKeys) {
    if (foreignKey.onUpdate === 'RESTRICT') foreignKey.onUpdate = 'NO ACTION';
  }
  for (const index of entity.indices) {
    const partial = index.name === undefined ? undefined : SQLITE_PARTIAL_INDEXES[index.name];
    if (!partial) continue;
    index.columns = partial.columns.map((name) => entity.findColumnWithDatabaseName(name)!);
    index.where = partial.where;
  }
}
