import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { SECRET_KEY_FIELD } from '../auth/credential-headers';
import { sha256Hex } from '../auth/digest';
import { isWellFormedSecretKey } from '../auth/secret-key';
import { EdgeAnswer } from '../http/edge-answer';
import { KeyUsageNotes } from '../key-usage/key-usage-notes';
import { AddressAllowance } from '../rate-limit/address-allowance';
import { CredentialRateLimit } from '../rate-limit/credential-rate-limit';
import { ClientAnswers } from './client-answers';

export const GET_CLIENT_ROUTE = '/api/client/get/secretKey';

/** What the edge needs to answer get-client itself: the answers, and the rate limits the guards would apply. */
export interface GetClientAnswers extends ClientAnswers {
  /** Counts the request against the key's rate limit; false once it is over (the full way then answers 429). */
  withinRateLimit(secretKeyDigest: string): boolean;
  /** Whether the address is blocked for its refused credentials (the full way then answers 429, whatever the key). */
  isAddressBlocked(ip: string): boolean;
  /** The key was used: it is answered here. */
  noteUse(secretKeyDigest: string): void;
}

/**
 * preHandler: get-client answered ahead of Nest's router, after the request id, security headers, request deadline and
 * body checks, and before the guards, pipe and controller, which for a known, enabled client would only re-derive what
 * is already known. A cache hit is answered at once; a miss reads the database here, fills the cache and is answered
 * the same way. Everything else (an unknown key, a disabled client, a body with fields, a credential over its limit, an
 * address blocked for its refusals, a database that failed) goes the full way through ClientController, which
 * answers it from what this path left in the cache.
 *
 * Why outside Nest: this route is called on every request the platform authenticates, by a fleet of clients whose
 * long tail misses the cache; Nest's per-request pipeline cost as much as the rest of the answer (see BENCHMARKS.md).
 */
export function answerGetClientAtEdge(answers: GetClientAnswers): preHandlerHookHandler {
  return (request, reply, done) => {
    const secretKey =
      request.routeOptions.url === GET_CLIENT_ROUTE && request.method === 'POST' ? answerableKey(request, answers) : undefined;
    if (secretKey === undefined) return done();
    const secretKeyDigest = sha256Hex(secretKey);
    const send = (answer: string | null): void => {
      if (answer !== null && answers.withinRateLimit(secretKeyDigest)) {
        answers.noteUse(secretKeyDigest);
        void sendAnswer(reply, answer);
      } else done();
    };
    const cached = answers.cachedAnswer(secretKey, secretKeyDigest);
    if (cached !== undefined) return send(cached);
    answers.loadAnswer(secretKey, secretKeyDigest).then(
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

/**
 * get-client's answer at the edge, as ClientModule provides it to the edge (EdgeAnswer): the client registry's answers,
 * and the rate limits the guards would apply, counted in the same storages.
 */
@Injectable()
export class GetClientAtEdge extends EdgeAnswer {
  readonly preHandler: preHandlerHookHandler;

  constructor(clients: ClientAnswers, rateLimit: CredentialRateLimit, addresses: AddressAllowance, keyUsage: KeyUsageNotes) {
    super();
    this.preHandler = answerGetClientAtEdge({
      cachedAnswer: (secretKey, digest) => clients.cachedAnswer(secretKey, digest),
      loadAnswer: (secretKey, digest) => clients.loadAnswer(secretKey, digest),
      withinRateLimit: (digest) => rateLimit.tryAcquire(digest),
      isAddressBlocked: (ip) => addresses.blockedFor(ip) > 0,
      noteUse: (digest) => keyUsage.note(digest),
    });
  }
}

/** The key of a request the edge may answer: a single well-formed key, an empty body, an address not blocked. */
function answerableKey(request: FastifyRequest, answers: GetClientAnswers): string | undefined {
  const secretKey = request.headers[SECRET_KEY_FIELD];
  if (typeof secretKey !== 'string' || !isWellFormedSecretKey(secretKey) || !isEmptyBody(request.body)) return undefined;
  return answers.isAddressBlocked(request.ip) ? undefined : secretKey;
}

function sendAnswer(reply: FastifyReply, answer: string): FastifyReply {
  return reply.code(200).type('application/json; charset=utf-8').send(answer);
}

/** What EmptyBodyDto accepts: no body, or `{}`. */
function isEmptyBody(body: unknown): boolean {
  return body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
}
