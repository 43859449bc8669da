import { LoggerService } from '@nestjs/common';
import { Logger, Params, PinoLogger } from 'nestjs-pino';
import type pino from 'pino';

// Given to NestFactory.create, so that every line is JSON from Nest's first one on.
export function nestLoggerOver(root: pino.Logger): LoggerService {
  const params: Params = { pinoHttp: { logger: root } };
  return new Logger(new PinoLogger(params), params);
}
