import type { FastifyRequest } from 'fastify';

/** The label of a request no route matched, so 404 scans cannot create a log field or metric label per URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The route pattern, never the raw URL: label values stay few whatever callers send. */
export function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}
