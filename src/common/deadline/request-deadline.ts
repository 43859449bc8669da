import type { FastifyInstance } from 'fastify';
import { ServiceUnavailableError, classifyError } from '../filters/error-classification';

/**
 * No request may keep its caller waiting longer than this: a database that accepts connections but never answers
 * would otherwise hang it. Longer than the driver and broker timeouts, so their own errors come first.
 */
export const REQUEST_DEADLINE_MS = 4500;

/**
 * Answers 503 in the envelope when a request is still unanswered at the deadline, counted from its arrival. A Fastify
 * hook with one timer, rather than a Nest interceptor: any interceptor puts Nest's interceptor chain on every request,
 * which measured as a third of get-client's throughput. A handler finishing later finds the reply sent and is ignored.
 */
export function enforceRequestDeadline(fastify: FastifyInstance, deadlineMs = REQUEST_DEADLINE_MS): void {
  const timers = new WeakMap<object, NodeJS.Timeout>();
  fastify.addHook('onRequest', (request, reply, done) => {
    const timer = setTimeout(() => {
      if (reply.sent) return;
      const { status, message } = classifyError(new ServiceUnavailableError('request deadline exceeded'));
      void reply.code(status).type('application/json; charset=utf-8').send({ status, error: message });
    }, deadlineMs);
    timers.set(request, timer);
    done();
  });
  fastify.addHook('onResponse', (request, _reply, done) => {
    clearTimeout(timers.get(request));
    done();
  });
}

/** Bounds one wait that runs outside the request's own deadline (a guard), with the same 503 when it is exceeded. */
export function withDeadline<T>(operation: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ServiceUnavailableError(`${what} did not answer within ${milliseconds} ms`)), milliseconds);
  });
  return Promise.race([operation, deadline]).finally(() => clearTimeout(timer));
}
