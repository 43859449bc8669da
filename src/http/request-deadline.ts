import type { FastifyInstance, FastifyReply } from 'fastify';
import { ServiceUnavailableError } from '../common/errors/unavailable';
import { toEnvelope } from './envelope';

// Longer than the driver and broker timeouts, so that their own errors come first.
export const REQUEST_DEADLINE_MS = 4500;

export const DEADLINE_SWEEP_MS = 100;

// Hooks, not a Nest interceptor (a third of get-client's throughput), and one sweep, not a timer per request (2 µs an
// answer): see BENCHMARKS.md.
export function enforceRequestDeadline(fastify: FastifyInstance, deadlineMs = REQUEST_DEADLINE_MS, sweepMs = DEADLINE_SWEEP_MS): void {
  // A Set keeps arrival order, so the sweep stops at the first request still within its deadline.
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

// A body still arriving is the caller's slowness (408); anything the caller still sends would be read for nothing.
function answerLate(reply: FastifyReply): void {
  const envelope =
    reply.request.raw.complete === false
      ? { status: 408, error: `Request body not received within ${REQUEST_DEADLINE_MS / 1000} s` }
      : toEnvelope(new ServiceUnavailableError('request deadline exceeded'));
  void reply.code(envelope.status).header('connection', 'close').type('application/json; charset=utf-8').send(envelope);
}
