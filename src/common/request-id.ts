import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { holdsKeyLikeRun } from './key-like';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function createRequestId(): string {
  return randomUUID();
}

export function callerRequestIdOf(request: Pick<IncomingMessage, 'headers'>): string | null {
  const given = request.headers[REQUEST_ID_HEADER];
  if (typeof given !== 'string' || !SANE_REQUEST_ID.test(given)) return null;
  // An id that looks like a credential is never logged or stored.
  return holdsKeyLikeRun(given) ? null : given;
}
