import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import type pino from 'pino';
import { AppConfig } from '../config/app-config';
import { configuredSecrets } from '../config/configured-secrets';
import { Loggers, createLoggers } from './logger-options';
import { ACCESS_LOGGER, ROOT_LOGGER } from './root-logger';

const LOGGERS = Symbol('LOGGERS');

const providers = [
  {
    provide: LOGGERS,
    inject: [ConfigService],
    useFactory: (config: ConfigService<AppConfig, true>): Loggers =>
      createLoggers({
        level: config.get('logLevel', { infer: true }),
        pretty: config.get('prettyLogs', { infer: true }),
        file: config.get('logFile', { infer: true }),
        secrets: configuredSecrets({
          adminApiKeys: config.get('adminApiKeys', { infer: true }),
          encryptionKeys: config.get('encryptionKeys', { infer: true }),
          database: config.get('database', { infer: true }),
          amqpUrl: config.get('amqpUrl', { infer: true }),
        }),
      }),
  },
  { provide: ROOT_LOGGER, inject: [LOGGERS], useFactory: (loggers: Loggers) => loggers.root },
  { provide: ACCESS_LOGGER, inject: [LOGGERS], useFactory: (loggers: Loggers) => loggers.access },
];

/** Holds the loggers, for nestjs-pino's module and the edge's access log alike. */
@Module({ providers, exports: [ROOT_LOGGER, ACCESS_LOGGER] })
class LoggersModule {}

@Module({
  imports: [
    LoggersModule,
    LoggerModule.forRootAsync({
      imports: [LoggersModule],
      inject: [ROOT_LOGGER],
      // nestjs-pino as Nest's logger only: its per-request middleware is not mounted (forRoutes: []); the edge logs requests.
      useFactory: (logger: pino.Logger) => ({ pinoHttp: { logger }, forRoutes: [] }),
    }),
  ],
  exports: [LoggersModule],
})
export class LoggingModule {}
