import type { FastifyInstance, FastifyReply } from 'fastify';
import { ServiceUnavailableError } from '../common/errors/unavailable';
import { toEnvelope } from './envelope';

/**
 * No request may keep its caller waiting longer than this: a database that accepts connections but never answers
 * would otherwise hang it. Longer than the driver and broker timeouts, so their own errors come first.
 */
export const REQUEST_DEADLINE_MS = 4500;

/** How often unanswered requests are checked: a request is answered at most this late after its deadline. */
export const DEADLINE_SWEEP_MS = 100;

/**
 * Answers 503 in the envelope when a request is still unanswered at the deadline, counted from its arrival. Fastify
 * hooks rather than a Nest interceptor: any interceptor puts Nest's interceptor chain on every request, which measured
 * as a third of get-client's throughput. One sweep over the unanswered requests rather than a timer each: a timer per
 * request cost as much as the security headers. A handler finishing later finds the reply sent and is ignored.
 */
export function enforceRequestDeadline(fastify: FastifyInstance, deadlineMs = REQUEST_DEADLINE_MS, sweepMs = DEADLINE_SWEEP_MS): void {
  // In arrival order, so the sweep stops at the first request still within its deadline.
  const unanswered = new Set<FastifyReply>();
  const sweep = () => {
    for (const reply of unanswered) {
      if (!reply.sent && reply.elapsedTime < deadlineMs) return;
      unanswered.delete(reply);
      if (!reply.sent) answerLate(reply);
    }
  };
  let sweeper: NodeJS.Timeout | undefined;
  fastify.addHook('onReady', (done) => {
    sweeper = setInterval(sweep, sweepMs).unref();
    done();
  });
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(sweeper);
    done();
  });
  fastify.addHook('onRequest', (_request, reply, done) => {
    unanswered.add(reply);
    done();
  });
  fastify.addHook('onResponse', (_request, reply, done) => {
    unanswered.delete(reply);
    done();
  });
}

/**
 * A request whose body is still arriving is the caller's slowness (408), any other the service's (503). Either way the
 * connection is closed after the answer: whatever the caller still sends on it would be read for nothing.
 */
function answerLate(reply: FastifyReply): void {
  // `complete` turns true once Node has the whole message (at once for a request without a body).
  const envelope =
    reply.request.raw.complete === false
      ? { status: 408, error: `Request body not received within ${REQUEST_DEADLINE_MS / 1000} s` }
      : toEnvelope(new ServiceUnavailableError('request deadline exceeded'));
  void reply.code(envelope.status).header('connection', 'close').type('application/json; charset=utf-8').send(envelope);
}
