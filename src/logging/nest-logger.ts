import { LoggerService } from '@nestjs/common';
import { Logger, Params, PinoLogger } from 'nestjs-pino';
import type pino from 'pino';

/**
 * Nest's own logger (its start-up lines, TypeORM's retries, every `new Logger(...)` of the code) as nestjs-pino's
 * adapter over the root logger, given to NestFactory.create: every line is JSON from the first one on.
 */
export function nestLoggerOver(root: pino.Logger): LoggerService {
  const params: Params = { pinoHttp: { logger: root } };
  return new Logger(new PinoLogger(params), params);
}
