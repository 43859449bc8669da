import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AdvancedConsoleLogger, DataSourceOptions } from 'typeorm';
import { DatabaseConfig } from '../config/app-config';
import { DATABASE_TIMEOUT_MS } from '../common/errors/unavailable';
import { CreateClientAndSmsConfig1732240000000 as CreateMysqlSchema } from './migrations/mysql/1732240000000-CreateClientAndSmsConfig';
import { CreateSmsConfigAddProcedure1795327283819 } from './migrations/mysql/1795327283819-CreateSmsConfigAddProcedure';
import { SmsConfigLimitByTrigger1795400000000 as MysqlSmsConfigLimit } from './migrations/mysql/1795400000000-SmsConfigLimitByTrigger';
import { SmsConfigLimitWithoutTrigger1795600000000 as MysqlLimitWithoutTrigger } from './migrations/mysql/1795600000000-SmsConfigLimitWithoutTrigger';
import { ClientLifecycle1796000000000 as MysqlClientLifecycle } from './migrations/mysql/1796000000000-ClientLifecycle';
import { DomainEventOutbox1797000000000 as MysqlDomainEventOutbox } from './migrations/mysql/1797000000000-DomainEventOutbox';
import { CreateClientAndSmsConfig1732240000000 as CreateSqliteSchema } from './migrations/sqlite/1732240000000-CreateClientAndSmsConfig';
import { SmsConfigLimitByTrigger1795400000000 as SqliteSmsConfigLimit } from './migrations/sqlite/1795400000000-SmsConfigLimitByTrigger';
import { SmsConfigLimitWithoutTrigger1795600000000 as SqliteLimitWithoutTrigger } from './migrations/sqlite/1795600000000-SmsConfigLimitWithoutTrigger';
import { ClientLifecycle1796000000000 as SqliteClientLifecycle } from './migrations/sqlite/1796000000000-ClientLifecycle';
import { DomainEventOutbox1797000000000 as SqliteDomainEventOutbox } from './migrations/sqlite/1797000000000-DomainEventOutbox';
import { TablesAsTypeormWritesThem1798000000000 } from './migrations/sqlite/1798000000000-TablesAsTypeormWritesThem';
import { CredentialCustody1798000000001 as MysqlCredentialCustody } from './migrations/mysql/1798000000001-CredentialCustody';
import { CredentialCustody1798000000001 as SqliteCredentialCustody } from './migrations/sqlite/1798000000001-CredentialCustody';
import { KeyUsage1798000000002 as MysqlKeyUsage } from './migrations/mysql/1798000000002-KeyUsage';
import { KeyUsage1798000000002 as SqliteKeyUsage } from './migrations/sqlite/1798000000002-KeyUsage';
import { Dispatch1798000000003 as MysqlDispatch } from './migrations/mysql/1798000000003-Dispatch';
import { Dispatch1798000000003 as SqliteDispatch } from './migrations/sqlite/1798000000003-Dispatch';
import { ProviderHosts1798000000004 as MysqlProviderHosts } from './migrations/mysql/1798000000004-ProviderHosts';
import { ProviderHosts1798000000004 as SqliteProviderHosts } from './migrations/sqlite/1798000000004-ProviderHosts';
import { ExactAmounts1798000000005 as MysqlExactAmounts } from './migrations/mysql/1798000000005-ExactAmounts';
import { ExactAmounts1798000000005 as SqliteExactAmounts } from './migrations/sqlite/1798000000005-ExactAmounts';
import { AuditAndKeptSecrets1798000000006 as MysqlAuditAndKeptSecrets } from './migrations/mysql/1798000000006-AuditAndKeptSecrets';
import { AuditAndKeptSecrets1798000000006 as SqliteAuditAndKeptSecrets } from './migrations/sqlite/1798000000006-AuditAndKeptSecrets';
import { DestinationPrices1798000000007 as MysqlDestinationPrices } from './migrations/mysql/1798000000007-DestinationPrices';
import { DestinationPrices1798000000007 as SqliteDestinationPrices } from './migrations/sqlite/1798000000007-DestinationPrices';
import { AllowedDestinations1798000000008 as MysqlAllowedDestinations1798000000008 } from './migrations/mysql/1798000000008-AllowedDestinations';
import { AllowedDestinations1798000000008 as SqliteAllowedDestinations1798000000008 } from './migrations/sqlite/1798000000008-AllowedDestinations';
import { DailyLimits1798000000009 as MysqlDailyLimits1798000000009 } from './migrations/mysql/1798000000009-DailyLimits';
import { DailyLimits1798000000009 as SqliteDailyLimits1798000000009 } from './migrations/sqlite/1798000000009-DailyLimits';
import { ChangeSequence1798000000010 as MysqlChangeSequence1798000000010 } from './migrations/mysql/1798000000010-ChangeSequence';
import { ChangeSequence1798000000010 as SqliteChangeSequence1798000000010 } from './migrations/sqlite/1798000000010-ChangeSequence';
import { RequestTrace1798000000011 as MysqlRequestTrace1798000000011 } from './migrations/mysql/1798000000011-RequestTrace';
import { RequestTrace1798000000011 as SqliteRequestTrace1798000000011 } from './migrations/sqlite/1798000000011-RequestTrace';
import { RemoveNeverPublicHosts1798000000012 as MysqlRemoveNeverPublicHosts } from './migrations/mysql/1798000000012-RemoveNeverPublicHosts';
import { RemoveNeverPublicHosts1798000000012 as SqliteRemoveNeverPublicHosts } from './migrations/sqlite/1798000000012-RemoveNeverPublicHosts';
import { DeliverySignals1798000000013 as MysqlDeliverySignals1798000000013 } from './migrations/mysql/1798000000013-DeliverySignals';
import { DeliverySignals1798000000013 as SqliteDeliverySignals1798000000013 } from './migrations/sqlite/1798000000013-DeliverySignals';
import { RemoveAddedNeverPublicHosts1798000000014 as MysqlRemoveAddedNeverPublicHosts } from './migrations/mysql/1798000000014-RemoveAddedNeverPublicHosts';
import { RemoveAddedNeverPublicHosts1798000000014 as SqliteRemoveAddedNeverPublicHosts } from './migrations/sqlite/1798000000014-RemoveAddedNeverPublicHosts';

// Each may run again after failing at any statement, and none needs privileges beyond its own database.
export const MYSQL_MIGRATIONS = [
  CreateMysqlSchema,
  CreateSmsConfigAddProcedure1795327283819,
  MysqlSmsConfigLimit,
  MysqlLimitWithoutTrigger,
  MysqlClientLifecycle,
  MysqlDomainEventOutbox,
  MysqlCredentialCustody,
  MysqlKeyUsage,
  MysqlDispatch,
  MysqlProviderHosts,
  MysqlExactAmounts,
  MysqlAuditAndKeptSecrets,
  MysqlDestinationPrices,
  MysqlAllowedDestinations1798000000008,
  MysqlDailyLimits1798000000009,
  MysqlChangeSequence1798000000010,
  MysqlRequestTrace1798000000011,
  MysqlRemoveNeverPublicHosts,
  MysqlDeliverySignals1798000000013,
  MysqlRemoveAddedNeverPublicHosts,
];
export const SQLITE_MIGRATIONS = [
  CreateSqliteSchema,
  SqliteSmsConfigLimit,
  SqliteLimitWithoutTrigger,
  SqliteClientLifecycle,
  SqliteDomainEventOutbox,
  TablesAsTypeormWritesThem1798000000000,
  SqliteCredentialCustody,
  SqliteKeyUsage,
  SqliteDispatch,
  SqliteProviderHosts,
  SqliteExactAmounts,
  SqliteAuditAndKeptSecrets,
  SqliteDestinationPrices,
  SqliteAllowedDestinations1798000000008,
  SqliteDailyLimits1798000000009,
  SqliteChangeSequence1798000000010,
  SqliteRequestTrace1798000000011,
  SqliteRemoveNeverPublicHosts,
  SqliteDeliverySignals1798000000013,
  SqliteRemoveAddedNeverPublicHosts,
];

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
