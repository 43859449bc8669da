import { DynamicModule, Module } from '@nestjs/common';
import { Loggers } from './logger-options';
import { ACCESS_LOGGER, ROOT_LOGGER } from './root-logger';

@Module({})
export class LoggingModule {
  static forRoot(loggers: Loggers): DynamicModule {
    return {
      module: LoggingModule,
      global: true,
      providers: [
        { provide: ROOT_LOGGER, useValue: loggers.root },
        { provide: ACCESS_LOGGER, useValue: loggers.access },
      ],
      exports: [ROOT_LOGGER, ACCESS_LOGGER],
    };
  }
}
