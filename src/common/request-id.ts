import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** What a credential looks like (see logging/secret-scrubber.ts): an id like that is never logged or stored. */
const KEY_LIKE = /[A-Za-z0-9_-]{40,}/;

/**
 * Fastify's genReqId: the service's own id for every request, whatever the caller sent. A caller's x-request-id is not
 * the request's id (it is caller text: audit entries must not carry it as the service's); it is kept beside it as
 * callerRequestIdOf().
 */
export function createRequestId(): string {
  return randomUUID();
}

/** The caller's x-request-id when it is a sane token that does not look like a key; else null. */
export function callerRequestIdOf(request: Pick<IncomingMessage, 'headers'>): string | null {
  const given = request.headers[REQUEST_ID_HEADER];
  if (typeof given !== 'string' || !SANE_REQUEST_ID.test(given)) return null;
  // A UUID (36) is never key-like; only longer ids are looked at.
  return given.length >= 40 && KEY_LIKE.test(given) ? null : given;
}
