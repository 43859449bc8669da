import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { isUnavailableError } from '../common/errors/unavailable';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions, withStatementTimeout } from './database-options';
import { MigrationsAtStart } from './migrations-at-start';
import { registryDataSource, withStatementHooks } from './registry-data-source';
import { StatementTally } from './statement-tally';
import { Transactions } from './transactions';
import { WriteScripts } from './write-scripts';

// One tally for the DataSource's hooks (TypeORM's module builds its options) and for the services that read it.
@Module({ providers: [StatementTally], exports: [StatementTally] })
class StatementTallyModule {}

@Module({
  imports: [
    StatementTallyModule,
    TypeOrmModule.forRootAsync({
      imports: [StatementTallyModule],
      inject: [ConfigService, StatementTally],
      useFactory: (config: ConfigService<AppConfig, true>, statements: StatementTally) => ({
        ...withStatementHooks(withStatementTimeout(buildDataSourceOptions(config.get('database', { infer: true }))), statements),
        autoLoadEntities: true,
        retryAttempts: 10,
        retryDelay: 1000,
        // Only an unreachable database is worth waiting for; a wrong schema or option fails the start at once.
        toRetry: (error: unknown) => isUnavailableError(error),
      }),
      dataSourceFactory: (options) => Promise.resolve(registryDataSource(options!)),
    }),
  ],
  providers: [Transactions, WriteScripts, MigrationsAtStart],
  exports: [Transactions, WriteScripts, StatementTallyModule],
})
export class DatabaseModule {}
