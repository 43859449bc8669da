import type { preHandlerHookHandler } from 'fastify';

// Provided by a feature module (ClientModule: get-client), so that http imports no feature.
export abstract class EdgeAnswer {
  abstract readonly preHandler: preHandlerHookHandler;
  // The route it answers: answered, at debug in the access log (its use shows in key usage and metrics).
  abstract readonly route: string;
}
