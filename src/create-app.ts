import { randomUUID } from 'node:crypto';
import { IncomingMessage, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { BadRequestException } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyInstance } from 'fastify';
import { Logger } from 'nestjs-pino';
import secureJson from 'secure-json-parse';
import { AppModule } from './app.module';
import { findInexactNumber } from './common/http/inexact-numbers';
import { securityHeadersFor } from './common/http/security-headers';
import { enforceRequestDeadline } from './common/deadline/request-deadline';
import { setUpSwagger } from './swagger';

export const BODY_LIMIT_BYTES = 64 * 1024;
const MAX_JSON_DEPTH = 32;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the whole application, exactly as production runs it, without listening: main.ts and the e2e tests share it. */
export async function createApp(): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: takeOrCreateRequestId,
    clientErrorHandler: answerMalformedRequest,
    // While closing, requests on open keep-alive connections are still served (with Connection: close) instead of
    // Fastify's own 503 body, which is not the envelope; the listener close waits for them.
    return503OnClosing: false,
    // No Nest middleware is mounted (requests are logged by a Fastify hook): middie's hook would run on every request for nothing.
    skipMiddie: true,
  });
  configureFastify(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, adapter, { bodyParser: false, bufferLogs: true });
  app.useLogger(app.get(Logger));
  // process.exit(0) once closed, rather than re-raising the signal: a drained shutdown is a clean exit.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  setUpSwagger(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

/** A caller's x-request-id is kept (when it is a sane token) so one id follows a call across services. */
function takeOrCreateRequestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

function configureFastify(fastify: FastifyInstance): void {
  enforceRequestDeadline(fastify);
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeadersFor(request.url)).header('x-request-id', request.id);
    done();
  });

  // JSON only: every other content type is answered 415 by Fastify.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    // Many clients send Content-Type: application/json with no body on the read endpoints.
    if (body === '') return done(null, undefined);
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

function parseJsonBody(body: string): unknown {
  let value: unknown;
  try {
    value = secureJson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw new BadRequestException(
      error instanceof SyntaxError && /prototype/.test(error.message)
        ? 'Request body contains a forbidden key (__proto__ or constructor.prototype)'
        : 'Request body is not valid JSON',
    );
  }
  if (isNestedDeeperThan(value, MAX_JSON_DEPTH)) {
    throw new BadRequestException(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  // Refused rather than stored rounded: an amount must be kept as sent or not at all.
  const inexact = findInexactNumber(body);
  if (inexact) {
    throw new BadRequestException(
      `${shorten(inexact.path) || 'Request body'} cannot be kept exactly as a number: ${shorten(inexact.text)} (15 significant digits always can)`,
    );
  }
  return value;
}

/** Caller-written text quoted in an answer, kept to a readable length. */
function shorten(text: string, maxLength = 64): string {
  return text.length <= maxLength ? text : `${text.slice(0, maxLength)}…`;
}

function isNestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Requests Node cannot even parse (oversized headers, broken HTTP) still get the envelope. */
function answerMalformedRequest(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({ status, error: status === 431 ? 'Request headers are too large' : 'Malformed HTTP request' });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
