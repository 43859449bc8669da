import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type pino from 'pino';
import { UNMATCHED_ROUTE } from './logger-options';

export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * One line per answered request (404s, 415s and answers from the get-client cache included), written by a Fastify
 * hook with the root logger. pino-http's middleware did the same at the cost of two child loggers and an
 * AsyncLocalStorage context per request, a tenth of get-client's time. The line is flat: pino writes nested objects
 * through a generic serializer, a fifth of the line's cost.
 */
@Injectable()
export class AccessLog implements OnModuleInit {
  private readonly logger: pino.Logger;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(ROOT_LOGGER) rootLogger: pino.Logger,
  ) {
    // Redaction's wildcard paths quadruple the cost of a line; these lines are built from fields that hold no credential.
    this.logger = rootLogger.child({}, { redact: [] });
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onResponse', (request, reply, done) => {
      const statusCode = reply.statusCode;
      const level = statusCode >= 500 ? 'error' : statusCode >= 400 ? 'warn' : 'info';
      if (this.logger.isLevelEnabled(level)) {
        this.logger[level](
          {
            requestId: request.id,
            method: request.method,
            route: request.routeOptions.url ?? UNMATCHED_ROUTE,
            url: request.url,
            statusCode,
            durationMs: reply.elapsedTime,
          },
          'request completed',
        );
      }
      done();
    });
  }
}
