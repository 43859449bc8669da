import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import type pino from 'pino';
import { AppConfig } from '../config/app-config';
import { createRootLogger } from './logger-options';
import { ROOT_LOGGER } from './root-logger';

const rootLogger = {
  provide: ROOT_LOGGER,
  inject: [ConfigService],
  useFactory: (config: ConfigService<AppConfig, true>) =>
    createRootLogger({
      level: config.get('logLevel', { infer: true }),
      pretty: config.get('prettyLogs', { infer: true }),
      file: config.get('logFile', { infer: true }),
    }),
};

/** Holds the one root logger, for nestjs-pino's module and the edge's access log alike. */
@Module({ providers: [rootLogger], exports: [ROOT_LOGGER] })
class RootLoggerModule {}

@Module({
  imports: [
    RootLoggerModule,
    LoggerModule.forRootAsync({
      imports: [RootLoggerModule],
      inject: [ROOT_LOGGER],
      // nestjs-pino as Nest's logger only: its per-request middleware is not mounted (forRoutes: []); the edge logs requests.
      useFactory: (logger: pino.Logger) => ({ pinoHttp: { logger }, forRoutes: [] }),
    }),
  ],
  exports: [RootLoggerModule],
})
export class LoggingModule {}
