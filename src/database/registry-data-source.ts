import { Pool, PoolConnection, PoolOptions, createPool } from 'mysql2';
import { DataSource, DataSourceOptions, EntitySubscriberInterface, EventSubscriber, QueryRunner, ReplicationMode } from 'typeorm';
import { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver';
import { BetterSqlite3QueryRunner } from 'typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { EntityMetadata } from 'typeorm/metadata/EntityMetadata';
import { AfterQueryEvent } from 'typeorm/subscriber/event/QueryEvent';
import { DATABASE_TIMEOUT_MS, withTimeout } from '../common/errors/unavailable';
import { SqliteTurns } from './sqlite-turns';
import { StatementTally } from './statement-tally';

// MySQL cannot make a partial index.
const SQLITE_PARTIAL_INDEXES: Record<string, { columns: string[]; where: string }> = {
  IDX_audit_event_unpublished: { columns: ['id'], where: 'unpublished = 1' },
};

export class RegistryDataSource extends DataSource {
  readonly sqliteTurns?: SqliteTurns;
  private sqliteRunner?: TurnTakingSqliteRunner;

  constructor(
    options: DataSourceOptions,
    readonly statements = new StatementTally(),
  ) {
    super(withStatementHooks(options, statements));
    if (this.isSqlite) {
      // TypeORM's SQLite list lacks CHAR and MEDIUMTEXT, and its type check runs before buildMetadatas could respell them.
      this.driver.supportedDataTypes.push('char', 'mediumtext');
      this.driver.withLengthColumnTypes.push('char');
      this.sqliteTurns = new SqliteTurns();
    }
  }

  // Prepared once per connection: TypeORM sends text, which the server parses at every call (docs/architecture.md).
  async prepared<T>(sql: string, values: unknown[]): Promise<T[]> {
    const connection = (await (this.driver as MysqlDriver).obtainMasterConnection()) as PoolConnection;
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

  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  override createQueryRunner(mode?: ReplicationMode): QueryRunner {
    if (!this.sqliteTurns) return super.createQueryRunner(mode);
    const runner = (this.sqliteRunner ??= new TurnTakingSqliteRunner(
      this.driver as BetterSqlite3Driver,
      this.sqliteTurns,
      this.statements,
    ));
    runner.manager = this.createEntityManager(runner);
    return runner;
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    this.sqliteRunner = undefined;
  }

  private get isSqlite(): boolean {
    return this.options.type === 'better-sqlite3';
  }

  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (this.isSqlite) this.entityMetadatas.forEach(asSqliteDeclaresIt);
  }
}

// On SQLite TypeORM awaits no hook before a statement, and tells its subscribers nothing of a failed one.
class TurnTakingSqliteRunner extends BetterSqlite3QueryRunner {
  constructor(
    driver: BetterSqlite3Driver,
    private readonly turns: SqliteTurns,
    private readonly statements: StatementTally,
  ) {
    super(driver);
  }

  override query(...args: Parameters<BetterSqlite3QueryRunner['query']>): ReturnType<BetterSqlite3QueryRunner['query']> {
    return this.statements.counted(() => this.turns.statement(() => super.query(...args)));
  }
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

export function withStatementHooks(options: DataSourceOptions, statements: StatementTally): DataSourceOptions {
  if (options.type !== 'mysql' && options.type !== 'mariadb') return options;
  return {
    ...options,
    subscribers: [...(Array.isArray(options.subscribers) ? options.subscribers : []), statementSubscriber(statements)],
    connectorPackage: 'mysql2',
    driver: { createPool: (pool: PoolOptions) => new WaitBoundedPool(createPool(pool), statements) },
  };
}

// TypeORM builds subscribers from their classes, so each tally needs a class of its own.
function statementSubscriber(statements: StatementTally): new () => EntitySubscriberInterface {
  @EventSubscriber()
  class StatementSubscriber implements EntitySubscriberInterface {
    beforeQuery(): void {
      statements.started();
    }

    afterQuery(event: AfterQueryEvent<unknown>): void {
      if (event.success) statements.succeeded();
      else statements.failed(event.error);
    }
  }
  return StatementSubscriber;
}

type ConnectionCallback = (error: NodeJS.ErrnoException | null, connection?: PoolConnection) => unknown;

// mysql2's pool waits for a free connection without end; a connection that comes too late goes back to the pool.
export class WaitBoundedPool {
  constructor(
    private readonly pool: Pick<Pool, 'getConnection' | 'end'>,
    private readonly statements: StatementTally,
  ) {}

  getConnection(callback: ConnectionCallback): void {
    this.statements.waitStarted();
    let late = false;
    const acquired = new Promise<PoolConnection>((resolve, reject) =>
      this.pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))),
    ).then((connection) => {
      if (late) connection.release();
      return connection;
    });
    withTimeout(acquired, DATABASE_TIMEOUT_MS, 'database').then(
      (connection) => {
        this.statements.waitEnded();
        callback(null, connection);
      },
      (error: NodeJS.ErrnoException) => {
        late = true;
        this.statements.waitEnded(error);
        callback(error);
      },
    );
  }

  end(callback?: (error: NodeJS.ErrnoException | null) => unknown): void {
    this.pool.end(callback);
  }
}
