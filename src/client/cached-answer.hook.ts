import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isWellFormedSecretKey, sha256Hex } from '../common/crypto/secret-key';
import { SECRET_KEY_HEADER } from '../common/decorators/secret-key.decorator';
import { CredentialRateLimit } from '../rate-limit/credential-rate-limit';
import { ClientService } from './client.service';

export const GET_CLIENT_ROUTE = '/api/client/get/secretKey';

/**
 * get-client answered from the cache ahead of Nest's router: a Fastify preHandler hook, after the request id, security
 * headers, request deadline and body checks, and before the guards, pipe and controller, which on a cache hit would
 * only re-derive what is already known. The access log line and the metrics come from onResponse hooks as for any
 * request. Everything else (a miss, an unknown key, a body with fields, a credential over its limit) goes the full
 * way through ClientController, which answers it and fills the cache.
 *
 * Why outside Nest: this route is called on every request the platform authenticates; Nest's per-request pipeline
 * cost as much as the rest of the answer together (see BENCHMARKS.md).
 */
@Injectable()
export class CachedAnswerHook implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly clients: ClientService,
    private readonly rateLimit: CredentialRateLimit,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('preHandler', (request, reply, done) => {
      const answer = request.routeOptions.url === GET_CLIENT_ROUTE && request.method === 'POST' ? this.cachedAnswer(request) : undefined;
      if (answer === undefined) return done();
      void reply.code(200).type('application/json; charset=utf-8').send(answer);
    });
  }

  private cachedAnswer(request: FastifyRequest): string | undefined {
    const secretKey = request.headers[SECRET_KEY_HEADER];
    if (typeof secretKey !== 'string' || !isWellFormedSecretKey(secretKey) || !isEmptyBody(request.body)) return undefined;
    const secretKeyDigest = sha256Hex(secretKey);
    const answer = this.clients.cachedAnswer(secretKey, secretKeyDigest);
    return answer !== undefined && this.rateLimit.tryAcquire(secretKeyDigest) ? answer : undefined;
  }
}

/** What EmptyBodyDto accepts: no body, or `{}`. */
function isEmptyBody(body: unknown): boolean {
  return body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
}
