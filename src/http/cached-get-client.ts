import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import { SECRET_KEY_FIELD } from '../auth/credential-headers';
import { sha256Hex } from '../auth/digest';
import { isWellFormedSecretKey } from '../auth/secret-key';

export const GET_CLIENT_ROUTE = '/api/client/get/secretKey';

export interface CachedGetClient {
  /** The serialized answer for this key when its client is cached; undefined sends the request the full way. */
  cachedAnswer(secretKey: string, secretKeyDigest: string): string | undefined;
  /** Counts the request against the key's rate limit; false once it is over (the full way then answers 429). */
  withinRateLimit(secretKeyDigest: string): boolean;
  /** Whether the address is blocked for its refused credentials (the full way then answers 429, whatever the key). */
  isAddressBlocked(ip: string): boolean;
}

/**
 * preHandler: get-client answered from the cache ahead of Nest's router, after the request id, security headers,
 * request deadline and body checks, and before the guards, pipe and controller, which on a cache hit would only
 * re-derive what is already known. Everything else (a miss, an unknown key, a body with fields, a credential over its
 * limit, an address blocked for its refusals) goes the full way through ClientController, which answers it and fills
 * the cache.
 *
 * Why outside Nest: this route is called on every request the platform authenticates; Nest's per-request pipeline
 * cost as much as the rest of the answer together (see BENCHMARKS.md).
 */
export function answerGetClientFromCache(cache: CachedGetClient): preHandlerHookHandler {
  const answerOf = (request: FastifyRequest): string | undefined => {
    const secretKey = request.headers[SECRET_KEY_FIELD];
    if (typeof secretKey !== 'string' || !isWellFormedSecretKey(secretKey) || !isEmptyBody(request.body)) return undefined;
    if (cache.isAddressBlocked(request.ip)) return undefined;
    const secretKeyDigest = sha256Hex(secretKey);
    const answer = cache.cachedAnswer(secretKey, secretKeyDigest);
    return answer !== undefined && cache.withinRateLimit(secretKeyDigest) ? answer : undefined;
  };
  return (request, reply, done) => {
    const answer = request.routeOptions.url === GET_CLIENT_ROUTE && request.method === 'POST' ? answerOf(request) : undefined;
    if (answer === undefined) return done();
    void reply.code(200).type('application/json; charset=utf-8').send(answer);
  };
}

/** What EmptyBodyDto accepts: no body, or `{}`. */
function isEmptyBody(body: unknown): boolean {
  return body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
}
