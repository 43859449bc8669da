import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** What a credential looks like (see logging/secret-scrubber.ts): an id like that is never logged or echoed. */
const KEY_LIKE = /[A-Za-z0-9_-]{40,}/;

/** Fastify's genReqId: a caller's x-request-id is kept (when it is a sane token) so one id follows a call across services. */
export function takeOrCreateRequestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  if (typeof given !== 'string' || !SANE_REQUEST_ID.test(given)) return randomUUID();
  // A UUID (36) is never key-like; only longer ids are looked at.
  return given.length >= 40 && KEY_LIKE.test(given) ? randomUUID() : given;
}
