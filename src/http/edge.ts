import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type pino from 'pino';
import type { Histogram } from 'prom-client';
import { logAnswer } from './access-log';
import { addAnswerHeaders } from './answer-headers';
import { BODY_LIMIT_BYTES } from './body-limit';
import { CachedGetClient, answerGetClientFromCache } from './cached-get-client';
import { acceptJsonBodiesOnly } from './json-body';
import { answerMalformedRequest } from './malformed-request';
import { enforceRequestDeadline } from './request-deadline';
import { takeOrCreateRequestId } from './request-id';
import { timeAnswer } from './request-timing';

/** The Fastify server under Nest, with what must be set before it exists. */
export function createFastifyAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: takeOrCreateRequestId,
    // Requests Node cannot parse never reach a hook: they are answered on the socket, in the envelope.
    clientErrorHandler: answerMalformedRequest,
    // While closing, requests on open keep-alive connections are still served (with Connection: close) instead of
    // Fastify's own 503 body, which is not the envelope; the listener close waits for them.
    return503OnClosing: false,
    // No Nest middleware is mounted: middie's hook would run on every request for nothing.
    skipMiddie: true,
  });
}

export interface EdgeParts {
  cachedGetClient: CachedGetClient;
  accessLogger: pino.Logger;
  /** Whether a stop has begun (its 503s are logged at info). */
  isDraining: () => boolean;
  requestDuration: Histogram<string>;
}

/**
 * Everything that happens to a request at the Fastify level, in the order it runs. Nest's router, guards, pipe,
 * handler and exception filter (EnvelopeExceptionFilter) run between preHandler and the answer.
 */
export function registerEdge(fastify: FastifyInstance, parts: EdgeParts): void {
  // onRequest
  fastify.addHook('onRequest', addAnswerHeaders); // x-request-id and the security headers
  enforceRequestDeadline(fastify); // 503 for a request still unanswered at 4.5 s
  // body parsing
  acceptJsonBodiesOnly(fastify);
  // preHandler, ahead of Nest's router
  fastify.addHook('preHandler', answerGetClientFromCache(parts.cachedGetClient));
  // onResponse
  fastify.addHook('onResponse', logAnswer(parts.accessLogger, parts.isDraining));
  fastify.addHook('onResponse', timeAnswer(parts.requestDuration));
}
