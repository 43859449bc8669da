import { Pool, PoolConnection, PoolOptions, createPool } from 'mysql2';
import { AfterQueryEvent, DataSource, DataSourceOptions, EntitySubscriberInterface, EventSubscriber } from 'typeorm';
import { DATABASE_TIMEOUT_MS, withTimeout } from '../common/errors/unavailable';
import { StatementTally } from './statement-tally';
import { SqliteDataSource } from './typeorm-gaps';

// Every DataSource of the service and its scripts: the entities state MySQL's types, which SQLite reads as its migrations made them.
export function registryDataSource(options: DataSourceOptions): DataSource {
  return options.type === 'better-sqlite3' ? new SqliteDataSource(options) : new DataSource(options);
}

// On SQLite, Transactions counts the statements as they take their turns (sqlite-turns.ts).
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
