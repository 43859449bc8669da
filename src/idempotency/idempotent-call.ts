import { ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestWithActor } from '../auth/actor';
import { RequestWithClient } from '../auth/client-lookup';
import { RequestWithCredential } from '../rate-limit/credential';
import { idempotencyKeyOf } from './idempotency-key';

export interface IdempotentCall {
  // A client's keys share its scope, because a retry may come with its new key.
  scope: string;
  key: string;
  request: string;
  reply: FastifyReply;
  // Called only once the request is known to run: a replay is not a write.
  countWrite?: () => void;
}

// rawBody: the body's text as received, which http/json-body.ts keeps (named, not imported: http/ sits above the routes).
type KeyedRequest = FastifyRequest & RequestWithClient & RequestWithCredential & { rawBody?: string };

export function idempotentCallOf(context: ExecutionContext): IdempotentCall | undefined {
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
}

function scopeOf(request: KeyedRequest & RequestWithActor): string {
  if (request.client) return `client:${request.client.id}`;
  const role = request.actor?.startsWith('dispatcher:') ? 'dispatcher' : 'admin';
  return `${role}:${request.credentialDigest}`;
}
