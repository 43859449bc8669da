import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { runMigrationsUnderLock } from './run-migrations';

export class PendingMigrationsError extends Error {
  override name = 'PendingMigrationsError';
}

/**
 * Before the service answers anything: with MIGRATE_ON_START (the default) the pending migrations are applied, under a
 * lock so that replicas starting together apply them once. Without it they run as a step of their own (dist/migrate.js,
 * the migrate Job of deploy/), and a start that finds some still pending stops rather than serve an old schema.
 */
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
