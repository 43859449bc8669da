import type { onResponseHookHandler } from 'fastify';
import type pino from 'pino';
import { loggedUrl } from './logged-url';
import { callerRequestIdOf } from '../common/request-id';
import { routeLabel } from './route-label';

/**
 * onResponse: one line per answered request (404s, 415s and answers from the get-client cache included), written with
 * the access logger: no redaction paths (their wildcards quadruple the cost of a line), since no field below holds a
 * credential. pino-http's middleware did the same at the cost of two child loggers and an AsyncLocalStorage context per
 * request, a tenth of get-client's time. The line is flat: pino writes nested objects through a generic serializer, a
 * fifth of the line's cost. `requestId` is the service's id (the answer's x-request-id), `callerRequestId` the caller's own.
 */
export function logAnswer(logger: pino.Logger, isDraining: () => boolean): onResponseHookHandler {
  return (request, reply, done) => {
    const statusCode = reply.statusCode;
    // A 503 while the instance drains before a stop is the drain working (/health turns callers away): no page for anyone.
    const level = statusCode >= 500 ? (statusCode === 503 && isDraining() ? 'info' : 'error') : statusCode >= 400 ? 'warn' : 'info';
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
