import 'reflect-metadata';
import pino from 'pino';
import { loadAppConfig } from './config/load-app-config';
import { loadDotEnv } from './config/dotenv';
import { buildDataSourceOptions } from './database/database-options';
import { registryDataSource } from './database/registry-data-source';
import { runMigrationsUnderLock } from './database/run-migrations';
import { createLoggers, loggingConfigOf } from './logging/logger-options';
import { describeStartupFailure } from './startup-failure';

async function migrate(): Promise<void> {
  loadDotEnv();
  const config = loadAppConfig();
  const logger = createLoggers(loggingConfigOf(config)).root.child({ context: 'Migrations' });
  try {
    const dataSource = await registryDataSource(buildDataSourceOptions(config.database)).initialize();
    try {
      const applied = await runMigrationsUnderLock(dataSource);
      logger.info(applied.length > 0 ? `Applied ${applied.map((migration) => migration.name).join(', ')}` : 'The schema is up to date');
    } finally {
      await dataSource.destroy();
    }
  } catch (error) {
    logger.fatal(describeStartupFailure(error, config));
    process.exit(1);
  }
}

migrate().catch((error: unknown) => {
  pino(pino.destination({ dest: 1, sync: true })).fatal({ context: 'Migrations' }, describeStartupFailure(error));
  process.exit(1);
});
