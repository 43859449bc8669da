import { Pool, PoolConnection, PoolOptions, createPool } from 'mysql2';
import { DataSourceOptions, EntitySubscriberInterface, EventSubscriber } from 'typeorm';
import { AfterQueryEvent } from 'typeorm/subscriber/event/QueryEvent';
import { withTimeout } from '../common/timeout';
import { DATABASE_TIMEOUT_MS } from './database-timeout';
import { StatementTally } from './statement-tally';

/**
 * MySQL's options, with what TypeORM and mysql2 offer to tell `statements` of every statement: a subscriber to
 * TypeORM's query events, and the pool TypeORM is given (its `driver` option), whose waits for a connection count too
 * and last at most the database timeout. On SQLite TypeORM awaits no event before a statement and sends none after a
 * failed one: its runner counts them (RegistryDataSource).
 */
export function withStatementHooks(options: DataSourceOptions, statements: StatementTally): DataSourceOptions {
  if (options.type !== 'mysql' && options.type !== 'mariadb') return options;
  return {
    ...options,
    subscribers: [...(Array.isArray(options.subscribers) ? options.subscribers : []), statementSubscriber(statements)],
    connectorPackage: 'mysql2',
    driver: { createPool: (pool: PoolOptions) => new WaitBoundedPool(createPool(pool), statements) },
  };
}

/** A subscriber class of its own for each tally: TypeORM builds subscribers from their classes. */
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

/**
 * mysql2's pool lets a statement wait for a free connection without end: here it waits at most the database timeout,
 * then fails (503), and does not run later; a connection that comes too late goes back to the pool. The two calls
 * TypeORM's MySQL driver makes of its pool.
 */
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
