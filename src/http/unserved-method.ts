import { NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toEnvelope } from './envelope';

// The methods the routes serve (HEAD with GET). A request with another one matches no route, whatever its path.
const SERVED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'DELETE']);

/**
 * Answers 404 at once, as Nest's not-found handler words it, to a method no route serves: Fastify would first read its
 * headers and body (QUERY without Content-Type is 400 there, a body of another type 415). Does nothing for a matched route.
 */
export function answeredUnservedMethod(request: FastifyRequest, reply: FastifyReply): boolean {
  if (SERVED_METHODS.has(request.method) || !request.is404) return false;
  void reply.code(404).send(toEnvelope(new NotFoundException(`Cannot ${request.method} ${request.url}`)));
  return true;
}
