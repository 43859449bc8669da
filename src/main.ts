import './runtime-flags';
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { AppConfig } from './config/app-config';
import { loadAppConfig } from './config/load-app-config';
import { loadDotEnv } from './config/dotenv';
import { createApp } from './create-app';
import { OpsServer } from './health/ops-server';
import { createLoggers, loggingConfigOf } from './logging/logger-options';
import { describeStartupFailure } from './startup-failure';

async function bootstrap(): Promise<void> {
  loadDotEnv();
  const config = loadAppConfig();
  const loggers = createLoggers(loggingConfigOf(config));
  try {
    const app = await createApp(config, loggers);
    await app.listen(config.port, config.host);
    // After the API listens: a probe that finds /health ready can reach the API.
    const ops = await app.get(OpsServer).listen();
    // With PORT=0 this line is how a supervisor (and the fault tests) learn the port.
    const api = boundUrl(app.getHttpServer().address() as AddressInfo);
    loggers.root.info({ context: 'Bootstrap' }, `Listening on ${api}${ops ? ` (/health and /metrics on ${boundUrl(ops)} only)` : ''}`);
  } catch (error) {
    exitAfterFailedStart(loggers.root, error, config);
  }
}

function boundUrl({ address, family, port }: AddressInfo): string {
  return `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
}

// The line is still written: turn-batched-destination.ts flushes on exit.
function exitAfterFailedStart(logger: pino.Logger, error: unknown, config?: AppConfig): never {
  logger.fatal({ context: 'Bootstrap' }, describeStartupFailure(error, config));
  process.exit(1);
}

// Before the configuration is known (a bad variable), the line goes to stdout in the default JSON format.
bootstrap().catch((error: unknown) => exitAfterFailedStart(pino(pino.destination({ dest: 1, sync: true })), error));
