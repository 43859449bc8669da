import type { preHandlerHookHandler } from 'fastify';

// Provided by a feature module (ClientModule: get-client), so that http imports no feature.
export abstract class EdgeAnswer {
  abstract readonly preHandler: preHandlerHookHandler;
}
