import type { preHandlerHookHandler } from 'fastify';

/**
 * A route a feature answers at the Fastify level, ahead of Nest's router: registerEdge() adds it as its preHandler
 * hook, at its place in the order. A feature module provides it (ClientModule: get-client), so http imports no feature.
 */
export abstract class EdgeAnswer {
  /** Answers the request itself, or calls done() to leave it to Nest's router, guards, pipe and controller. */
  abstract readonly preHandler: preHandlerHookHandler;
}
