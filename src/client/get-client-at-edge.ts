import { Injectable } from '@nestjs/common';
import type { FastifyReply, preHandlerHookHandler } from 'fastify';
import { sha256Hex } from '../auth/digest';
import { shapeOf } from '../auth/scoped-key';
import { SecretKeyAdmission } from '../auth/secret-key-admission';
import { EdgeAnswer } from '../http/edge-answer';
import { ClientService } from './client.service';

export const GET_CLIENT_ROUTE = '/api/client/get/secretKey';

// Ahead of Nest's router: its per-request pipeline cost as much as the rest of the answer (BENCHMARKS.md).
export function answerGetClientAtEdge(clients: ClientService, admission: SecretKeyAdmission): preHandlerHookHandler {
  return (request, reply, done) => {
    if (request.routeOptions.url !== GET_CLIENT_ROUTE || request.method !== 'POST' || !isEmptyBody(request.body)) return done();
    const secretKey = admission.presentedKey(request.ip, request.headers);
    if (typeof secretKey !== 'string') return done();
    const secretKeyDigest = sha256Hex(secretKey);
    const send = (answer: string | null): void => {
      if (answer !== null && admission.admit(secretKeyDigest, shapeOf(secretKey), request.ip) === 0) void sendAnswer(reply, answer);
      else done();
    };
    const cached = clients.cachedAnswer(secretKey, secretKeyDigest, request.ip);
    if (cached !== undefined) return send(cached);
    clients.loadAnswer(secretKey, secretKeyDigest, request.ip).then(
      // Past the request deadline the caller already has its 503: nothing more is sent.
      (answer) => {
        if (!reply.sent) send(answer);
      },
      // ClientController reads again and returns the failure in the envelope, as for any route.
      () => {
        if (!reply.sent) done();
      },
    );
  };
}

@Injectable()
export class GetClientAtEdge extends EdgeAnswer {
  readonly preHandler: preHandlerHookHandler;
  readonly route = GET_CLIENT_ROUTE;

  constructor(clients: ClientService, admission: SecretKeyAdmission) {
    super();
    this.preHandler = answerGetClientAtEdge(clients, admission);
  }
}

function sendAnswer(reply: FastifyReply, answer: string): FastifyReply {
  return reply.code(200).type('application/json; charset=utf-8').send(answer);
}

function isEmptyBody(body: unknown): boolean {
  return body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
}
