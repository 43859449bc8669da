import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { runMigrationsUnderLock } from './run-migrations';

export class PendingMigrationsError extends Error {
  override name = 'PendingMigrationsError';
}

// Without MIGRATE_ON_START a start that finds migrations pending stops rather than serve an old schema.
@Injectable()
export class MigrationsAtStart implements OnModuleInit {
  private readonly logger = new Logger('Migrations');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.get('migrateOnStart', { infer: true })) {
      const applied = await runMigrationsUnderLock(this.dataSource);
      if (applied.length > 0) this.logger.log(`Applied ${applied.map((migration) => migration.name).join(', ')}`);
      return;
    }
    if (await this.dataSource.showMigrations()) {
      throw new PendingMigrationsError(
        'the database schema is behind this version: run its migrations first (node dist/migrate.js, the migrate Job of ' +
          'deploy/), or start with MIGRATE_ON_START=true',
      );
    }
  }
}
