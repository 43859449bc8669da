import type { FastifyRequest, onResponseHookHandler } from 'fastify';
import type pino from 'pino';
import { loggedUrl } from './logged-url';
import { callerRequestIdOf } from '../common/request-id';

// No redaction paths and a flat line, for their cost (BENCHMARKS.md): no field here holds a credential.
// Answered requests at debug: the line was the costliest of a cached get-client's operations (BENCHMARKS.md).
export function logAnswer(logger: pino.Logger, isDraining: () => boolean): onResponseHookHandler {
  return (request, reply, done) => {
    const statusCode = reply.statusCode;
    // A 503 while draining before a stop is the drain working, not an error to page anyone for.
    const level = statusCode >= 500 ? (statusCode === 503 && isDraining() ? 'info' : 'error') : statusCode >= 400 ? 'warn' : 'debug';
    if (logger.isLevelEnabled(level)) {
      logger[level](
        {
          requestId: request.id,
          callerRequestId: callerRequestIdOf(request.raw),
          method: request.method,
          route: routeLabel(request),
          url: loggedUrl(request.url),
          statusCode,
          durationMs: reply.elapsedTime,
        },
        'request completed',
      );
    }
    done();
  };
}

export const UNMATCHED_ROUTE = 'unmatched';

export function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}
