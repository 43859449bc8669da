import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyInstance, onRequestHookHandler, onResponseHookHandler, preHandlerHookHandler } from 'fastify';
import type pino from 'pino';
import type { Histogram } from 'prom-client';
import { exactJson } from '../common/exact-amount';
import { REQUEST_ID_HEADER, createRequestId } from '../common/request-id';
import type { AppConfig } from '../config/app-config';
import { trustedProxies } from '../config/trust-proxy';
import { logAnswer, routeLabel } from './access-log';
import { BODY_LIMIT_BYTES, acceptJsonBodiesOnly } from './json-body';
import { answerMalformedRequest } from './malformed-request';
import { enforceRequestDeadline } from './request-deadline';
import { securityHeadersFor } from './security-headers';
import { answeredUnservedMethod } from './unserved-method';

export function createFastifyAdapter({ http, trustProxy }: Pick<AppConfig, 'http' | 'trustProxy'>): FastifyAdapter {
  const options: FastifyHttpOptions<Server> = {
    bodyLimit: BODY_LIMIT_BYTES,
    // Fastify's default (0) lets a client that trickles its headers hold a connection forever.
    requestTimeout: http.requestTimeoutMs,
    http: { headersTimeout: http.requestTimeoutMs, connectionsCheckingInterval: Math.ceil(http.requestTimeoutMs / 10) },
    trustProxy: typeof trustProxy === 'string' ? trustedProxies(trustProxy) : trustProxy,
    requestIdHeader: false,
    genReqId: createRequestId,
    clientErrorHandler: answerMalformedRequest,
    // Fastify's own 503 body is not the envelope: requests on open keep-alive connections are served until they close.
    return503OnClosing: false,
  };
  const adapter = new FastifyAdapter({
    ...options,
    skipMiddie: true,
  });
  adapter.getInstance().server.maxConnections = http.maxConnections;
  return adapter;
}

export interface EdgeParts {
  edgeAnswer: preHandlerHookHandler;
  // Routes whose answered requests the access log writes at debug (with /health and /metrics).
  quietRoutes: string[];
  accessLogger: pino.Logger;
  isDraining: () => boolean;
  requestDuration: Histogram<string>;
}

export function registerEdge(fastify: FastifyInstance, parts: EdgeParts): void {
  fastify.setReplySerializer(exactJson);
  fastify.addHook('onRequest', addAnswerHeaders);
  enforceRequestDeadline(fastify);
  acceptJsonBodiesOnly(fastify);
  fastify.addHook('preHandler', parts.edgeAnswer);
  fastify.addHook('onResponse', logAnswer(parts.accessLogger, parts.isDraining, parts.quietRoutes));
  fastify.addHook('onResponse', timeAnswer(parts.requestDuration));
}

// One hook for both: two measured 0.96x-0.98x on get-client (BENCHMARKS.md).
export const addAnswerHeaders: onRequestHookHandler = (request, reply, done) => {
  reply.headers(securityHeadersFor(request.url)).header(REQUEST_ID_HEADER, request.id);
  if (!answeredUnservedMethod(request, reply)) done();
};

// A hook, because no interceptor sees 404s and guard refusals.
export function timeAnswer(duration: Histogram<string>): onResponseHookHandler {
  return (request, reply, done) => {
    duration.observe({ method: request.method, route: routeLabel(request), status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  };
}
