import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { isUnavailableError } from '../common/errors/unavailable';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions, withStatementTimeout } from './database-options';
import { MigrationsAtStart } from './migrations-at-start';
import { RegistryDataSource } from './registry-data-source';
import { Transactions } from './transactions';
import { WriteScripts } from './write-scripts';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => ({
        ...withStatementTimeout(buildDataSourceOptions(config.get('database', { infer: true }))),
        autoLoadEntities: true,
        retryAttempts: 10,
        retryDelay: 1000,
        // Only an unreachable database is worth waiting for; a wrong schema or option fails the start at once.
        toRetry: (error: unknown) => isUnavailableError(error),
      }),
      dataSourceFactory: (options) => Promise.resolve(new RegistryDataSource(options!)),
    }),
  ],
  providers: [Transactions, WriteScripts, MigrationsAtStart],
  exports: [Transactions, WriteScripts],
})
export class DatabaseModule {}
