import 'reflect-metadata';
import pino from 'pino';
import { loadAppConfig } from './config/load-app-config';
import { loadDotEnv } from './config/dotenv';
import { SecretSealer } from './crypto/secret-sealer';
import { buildDataSourceOptions, withStatementTimeout } from './database/database-options';
import { registryDataSource } from './database/registry-data-source';
import { createLoggers, loggingConfigOf } from './logging/logger-options';
import { Resealer, isComplete } from './reseal/resealer';
import { SealedColumnRepository, resealStatements } from './reseal/sealed-column.repository';
import { SEALED_COLUMNS } from './reseal/sealed-columns';
import { describeStartupFailure } from './startup-failure';

// Its report and exit codes are described in docs/key-retirement.md.
async function reseal(): Promise<void> {
  loadDotEnv();
  const config = loadAppConfig();
  const logger = createLoggers(loggingConfigOf(config)).root.child({ context: 'Reseal' });
  const stop = stopOnSignals();
  try {
    const dataSource = await registryDataSource(withStatementTimeout(buildDataSourceOptions(config.database))).initialize();
    try {
      const sql = resealStatements(dataSource);
      const resealer = new Resealer(
        SEALED_COLUMNS.map((sealedColumn) => new SealedColumnRepository(sql, sealedColumn)),
        new SecretSealer(config.encryptionKeys),
        config.encryptionKeys.map((key) => key.id),
        (line) => process.stdout.write(`${line}\n`),
      );
      process.exitCode = isComplete(await resealer.run(stop)) ? 0 : 1;
    } finally {
      await dataSource.destroy();
    }
  } catch (error) {
    logger.fatal(describeStartupFailure(error, config));
    process.exit(1);
  }
}

function stopOnSignals(): AbortSignal {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(1);
    controller.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return controller.signal;
}

reseal().catch((error: unknown) => {
  pino(pino.destination({ dest: 1, sync: true })).fatal({ context: 'Reseal' }, describeStartupFailure(error));
  process.exit(1);
});
