import type { onResponseHookHandler } from 'fastify';
import type { Histogram } from 'prom-client';
import { routeLabel } from './route-label';

// A hook, because no interceptor sees 404s and guard refusals.
export function timeAnswer(duration: Histogram<string>): onResponseHookHandler {
  return (request, reply, done) => {
    duration.observe({ method: request.method, route: routeLabel(request), status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  };
}
