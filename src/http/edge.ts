import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyInstance, preHandlerHookHandler } from 'fastify';
import type pino from 'pino';
import type { AppConfig } from '../config/app-config';
import type { Histogram } from 'prom-client';
import { exactJson } from '../common/exact-amount';
import { logAnswer } from './access-log';
import { addAnswerHeaders } from './answer-headers';
import { BODY_LIMIT_BYTES } from './body-limit';
import { acceptJsonBodiesOnly } from './json-body';
import { answerMalformedRequest } from './malformed-request';
import { enforceRequestDeadline } from './request-deadline';
import { createRequestId } from '../common/request-id';
import { timeAnswer } from './request-timing';

/** The Fastify server under Nest, with what must be set before it exists. */
export function createFastifyAdapter({ http, trustProxy }: Pick<AppConfig, 'http' | 'trustProxy'>): FastifyAdapter {
  const options: FastifyHttpOptions<Server> = {
    bodyLimit: BODY_LIMIT_BYTES,
    // Fastify's defaults (0) let a client that trickles its headers hold a connection forever. Node answers such a
    // request 408 (answerMalformedRequest) and looks for them every connectionsCheckingInterval, 30 s by default.
    requestTimeout: http.requestTimeoutMs,
    http: { headersTimeout: http.requestTimeoutMs, connectionsCheckingInterval: Math.ceil(http.requestTimeoutMs / 10) },
    // Who sent the request: the address itself, or, behind a load balancer, X-Forwarded-For's client (per-IP limits).
    trustProxy,
    requestIdHeader: false,
    genReqId: createRequestId,
    // Requests Node cannot parse never reach a hook: they are answered on the socket, in the envelope.
    clientErrorHandler: answerMalformedRequest,
    // While closing, requests on open keep-alive connections are still served (with Connection: close) instead of
    // Fastify's own 503 body, which is not the envelope; the listener close waits for them.
    return503OnClosing: false,
  };
  const adapter = new FastifyAdapter({
    ...options,
    // No Nest middleware is mounted: middie's hook would run on every request for nothing.
    skipMiddie: true,
  });
  // Past it, Node closes new connections at once, so a flood of sockets cannot take the memory of the instance.
  adapter.getInstance().server.maxConnections = http.maxConnections;
  return adapter;
}

export interface EdgeParts {
  /** A feature's route answered ahead of Nest's router (EdgeAnswer: get-client, src/client/get-client-at-edge.ts). */
  edgeAnswer: preHandlerHookHandler;
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
  // Answers as JSON, amounts with their stored digits (common/exact-amount.ts)
  fastify.setReplySerializer(exactJson);
  // onRequest
  fastify.addHook('onRequest', addAnswerHeaders); // x-request-id and the security headers
  enforceRequestDeadline(fastify); // 503 for a request still unanswered at 4.5 s
  // body parsing
  acceptJsonBodiesOnly(fastify);
  // preHandler, ahead of Nest's router
  fastify.addHook('preHandler', parts.edgeAnswer);
  // onResponse
  fastify.addHook('onResponse', logAnswer(parts.accessLogger, parts.isDraining));
  fastify.addHook('onResponse', timeAnswer(parts.requestDuration));
}
