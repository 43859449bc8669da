import { Injectable } from '@nestjs/common';
import type { FastifyReply, preHandlerHookHandler } from 'fastify';
import { sha256Hex } from '../auth/digest';
import { SecretKeyAdmission } from '../auth/secret-key-admission';
import { EdgeAnswer } from '../http/edge-answer';
import { ClientService } from './client.service';

export const GET_CLIENT_ROUTE = '/api/client/get/secretKey';

/**
 * preHandler: get-client answered ahead of Nest's router, after the request id, security headers, request deadline and
 * body checks, and before the guards, pipe and controller, which for a known, enabled client would only re-derive what
 * is already known. The key is admitted as the guards admit it (SecretKeyAdmission). A cache hit is answered at once;
 * a miss reads the database here, fills the cache and is answered the same way. Everything else (an unknown key, a
 * disabled client, a body with fields, a credential over its limit, an address blocked for its refusals, a database
 * that failed) goes the full way through ClientController, which answers it from what this path left in the cache.
 *
 * Why outside Nest: this route is called on every request the platform authenticates, by a fleet of clients whose
 * long tail misses the cache; Nest's per-request pipeline cost as much as the rest of the answer (see BENCHMARKS.md).
 */
export function answerGetClientAtEdge(clients: ClientService, admission: SecretKeyAdmission): preHandlerHookHandler {
  return (request, reply, done) => {
    if (request.routeOptions.url !== GET_CLIENT_ROUTE || request.method !== 'POST' || !isEmptyBody(request.body)) return done();
    const secretKey = admission.presentedKey(request.ip, request.headers);
    if (typeof secretKey !== 'string') return done();
    const secretKeyDigest = sha256Hex(secretKey);
    const send = (answer: string | null): void => {
      if (answer !== null && admission.admit(secretKeyDigest) === 0) void sendAnswer(reply, answer);
      else done();
    };
    const cached = clients.cachedAnswer(secretKey, secretKeyDigest);
    if (cached !== undefined) return send(cached);
    clients.loadAnswer(secretKey, secretKeyDigest).then(
      // Past the request deadline the caller already has its 503: nothing more is sent.
      (answer) => {
        if (!reply.sent) send(answer);
      },
      // The full way reads again and answers the failure in the envelope, as for any route.
      () => {
        if (!reply.sent) done();
      },
    );
  };
}

/** get-client's answer at the edge, as ClientModule provides it to the edge (EdgeAnswer). */
@Injectable()
export class GetClientAtEdge extends EdgeAnswer {
  readonly preHandler: preHandlerHookHandler;

  constructor(clients: ClientService, admission: SecretKeyAdmission) {
    super();
    this.preHandler = answerGetClientAtEdge(clients, admission);
  }
}

function sendAnswer(reply: FastifyReply, answer: string): FastifyReply {
  return reply.code(200).type('application/json; charset=utf-8').send(answer);
}

/** What EmptyBodyDto accepts: no body, or `{}`. */
function isEmptyBody(body: unknown): boolean {
  return body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
}
