import type { FastifyRequest, onResponseHookHandler } from 'fastify';
import type pino from 'pino';
import { loggedUrl } from './logged-url';
import { sourceAddressOf } from '../common/caller-trace';
import { callerRequestIdOf } from '../common/request-id';

// Answered at debug: a probe or a scrape every few seconds is no traffic, and get-client's line was the costliest of a
// cached answer's operations (BENCHMARKS.md); its use shows in key usage (the key's last address) and in metrics.
const QUIET_ROUTES = ['/health', '/metrics'];

// No redaction paths and a flat line, for their cost (BENCHMARKS.md): no field here holds a credential.
// `quietRoutes`: the routes besides /health and /metrics whose answered requests are written at debug.
export function logAnswer(logger: pino.Logger, isDraining: () => boolean, quietRoutes: readonly string[] = []): onResponseHookHandler {
  const quiet = new Set([...QUIET_ROUTES, ...quietRoutes]);
  return (request, reply, done) => {
    const statusCode = reply.statusCode;
    const level = statusCode < 400 ? (quiet.has(routeLabel(request)) ? 'debug' : 'info') : failureLevel(statusCode, isDraining);
    if (logger.isLevelEnabled(level)) {
      logger[level](
        {
          requestId: request.id,
          callerRequestId: callerRequestIdOf(request.raw),
          sourceAddress: sourceAddressOf(request.ip),
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

// No closure per answer: this runs for every one, get-client's included.
function failureLevel(statusCode: number, isDraining: () => boolean): pino.Level {
  // A 503 while draining before a stop is the drain working, not an error to page anyone for.
  if (statusCode >= 500) return statusCode === 503 && isDraining() ? 'info' : 'error';
  return 'warn';
}

export const UNMATCHED_ROUTE = 'unmatched';

export function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}
