import { ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestWithActor } from '../auth/actor';
import { RequestWithClient } from '../auth/client-lookup';
import { RequestWithCredential } from '../rate-limit/credential';
import { idempotencyKeyOf } from './idempotency-key';

export interface IdempotentCall {
  // A client's keys share its scope, because a retry may come with its new key.
  scope: string;
  // Where the previous release kept an admin's or a dispatcher's answers (the key's whole digest): read until they expire.
  legacyScope?: string;
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
    ...scopesOf(request),
    key,
    request: `${request.method} ${request.url}\n${request.rawBody ?? ''}`,
    reply: context.switchToHttp().getResponse<FastifyReply>(),
    countWrite: request.countWrite,
  };
}

// Each by its actor name: a client's root key or one of its scoped keys, an admin or a dispatcher (8 hex digits of the
// key's digest), never a digest a copy could test keys on.
function scopesOf(request: KeyedRequest & RequestWithActor): Pick<IdempotentCall, 'scope' | 'legacyScope'> {
  if (request.client) return { scope: request.actor! };
  const role = request.actor!.startsWith('dispatcher:') ? 'dispatcher' : 'admin';
  return { scope: request.actor!, legacyScope: `${role}:${request.credentialDigest}` };
}
