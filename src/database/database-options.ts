import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AdvancedConsoleLogger, DataSourceOptions } from 'typeorm';
import { DatabaseConfig } from '../config/app-config';
import { DATABASE_TIMEOUT_MS } from '../common/errors/unavailable';
import { MYSQL_MIGRATIONS } from './migrations/mysql';
import { SQLITE_MIGRATIONS } from './migrations/sqlite';

// Every statement longer than the timeout fails, and the failure is logged, never a statement's text and values.
class NoSlowStatementLogger extends AdvancedConsoleLogger {
  override logQuerySlow(): void {}
}

// Not for the TypeORM CLI, whose logger this replaces.
export function withStatementTimeout(options: DataSourceOptions): DataSourceOptions {
  if (options.type !== 'mysql' && options.type !== 'mariadb') return options;
  return { ...options, maxQueryExecutionTime: DATABASE_TIMEOUT_MS, enableQueryTimeout: true, logger: new NoSlowStatementLogger(false) };
}

export type EntityList = NonNullable<DataSourceOptions['entities']>;

export function buildDataSourceOptions(database: DatabaseConfig, entities: EntityList = []): DataSourceOptions {
  const common = {
    entities,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'typeorm_migrations',
    logging: false,
  } as const;

  if (database.type !== 'sqlite') {
    return {
      ...common,
      type: database.type,
      url: database.url,
      migrations: MYSQL_MIGRATIONS,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      poolSize: database.poolSize,
      connectTimeout: DATABASE_TIMEOUT_MS,
      extra: {
        enableKeepAlive: true,
        keepAliveInitialDelay: 10_000,
        maxIdle: database.poolSize,
        idleTimeout: 60_000,
      },
    };
  }

  mkdirSync(dirname(database.path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.path,
    migrations: SQLITE_MIGRATIONS,
    enableWAL: true,
    timeout: DATABASE_TIMEOUT_MS,
    prepareDatabase: (db: { pragma: (statement: string) => unknown }) => {
      // WAL + NORMAL survives a process crash (kill -9); only a power loss may drop the last commits.
      db.pragma('synchronous = NORMAL');
    },
  };
}
