import { BadRequestException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { checkNumbersAfterAuthentication } from '../common/validation/exact-numbers';

export const BODY_LIMIT_KIB = 32;
export const BODY_LIMIT_BYTES = BODY_LIMIT_KIB * 1024;

const MAX_JSON_DEPTH = 32;
const MAX_OBJECT_KEYS = 64;

export type RequestWithRawBody = { rawBody?: string };

export function acceptJsonBodiesOnly(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // A retry with an Idempotency-Key is compared byte for byte.
    (request as RequestWithRawBody).rawBody = body as string;
    // Many clients send Content-Type: application/json with no body on the read endpoints.
    if (body === '') return done(null, undefined);
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

export function parseJsonBody(body: string): unknown {
  let value: unknown;
  try {
    value = secureJson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw new BadRequestException(
      error instanceof SyntaxError && /prototype/.test(error.message)
        ? 'Request body contains a forbidden key (__proto__ or constructor.prototype)'
        : 'Request body is not valid JSON',
    );
  }
  const problem = shapeProblem(value);
  if (problem) throw new BadRequestException(problem);
  checkNumbersAfterAuthentication(value, body);
  return value;
}

function shapeProblem(value: unknown): string | undefined {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`;
    const children = Object.values(current);
    if (!Array.isArray(current) && children.length > MAX_OBJECT_KEYS)
      return `Request body has an object of more than ${MAX_OBJECT_KEYS} keys`;
    for (const child of children) pending.push([child, depth + 1]);
  }
  return undefined;
}
