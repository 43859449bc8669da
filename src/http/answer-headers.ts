import type { onRequestHookHandler } from 'fastify';
import { REQUEST_ID_HEADER } from '../common/request-id';
import { securityHeadersFor } from './security-headers';

/**
 * onRequest: the headers every answer carries, errors included: its request id (the one its log line has) and its
 * security headers. One hook for both: each hook is a step of every request, the cached get-client answer included.
 */
export const addAnswerHeaders: onRequestHookHandler = (request, reply, done) => {
  reply.headers(securityHeadersFor(request.url)).header(REQUEST_ID_HEADER, request.id);
  done();
};
