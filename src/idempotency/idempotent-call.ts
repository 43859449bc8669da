import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestWithActor } from '../auth/actor';
import { RequestWithClient } from '../auth/client-lookup';
import type { RequestWithRawBody } from '../http/json-body';
import { RequestWithCredential } from '../rate-limit/credential';
import { idempotencyKeyOf } from './idempotency-key';

/** A request sent with an Idempotency-Key: where its key lives, what "the same request" is, and where to answer. */
export interface IdempotentCall {
  /** A client's keys share its scope (a retry may come with its new key); an admin or a dispatcher key has its own. */
  scope: string;
  key: string;
  /** Method, path and body as sent: what "the same request" is, kept only as its digest (see RequestDigests). */
  request: string;
  reply: FastifyReply;
  /** Counts the request against its client's write limit, once it is known to run (a replay is not a write). */
  countWrite?: () => void;
}

type KeyedRequest = FastifyRequest & RequestWithClient & RequestWithCredential & RequestWithRawBody;

/**
 * The request's Idempotency-Key as an IdempotentCall, or undefined when it sent none (400 when it is malformed).
 * Resolved after the guards, so the scope is the credential they authenticated.
 */
export const IdempotencyOf = createParamDecorator((_: unknown, context: ExecutionContext): IdempotentCall | undefined => {
  const request = context.switchToHttp().getRequest<KeyedRequest>();
  const key = idempotencyKeyOf(request.headers);
  if (key === undefined) return undefined;
  return {
    scope: scopeOf(request),
    key,
    request: `${request.method} ${request.url}\n${request.rawBody ?? ''}`,
    reply: context.switchToHttp().getResponse<FastifyReply>(),
    countWrite: request.countWrite,
  };
});

/** The client, whichever of its keys was sent; else the admin or dispatcher key itself, by its digest. */
function scopeOf(request: KeyedRequest & RequestWithActor): string {
  if (request.client) return `client:${request.client.id}`;
  const role = request.actor?.startsWith('dispatcher:') ? 'dispatcher' : 'admin';
  return `${role}:${request.credentialDigest}`;
}
