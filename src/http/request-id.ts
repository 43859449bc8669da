import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { onRequestHookHandler } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's genReqId: a caller's x-request-id is kept (when it is a sane token) so one id follows a call across services. */
export function takeOrCreateRequestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** onRequest: every answer, errors included, carries the id its log line has. */
export const stampRequestId: onRequestHookHandler = (request, reply, done) => {
  reply.header(REQUEST_ID_HEADER, request.id);
  done();
};
