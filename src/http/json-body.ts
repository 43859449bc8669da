import { BadRequestException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { checkNumbersAfterAuthentication } from '../common/validation/exact-numbers';

const MAX_JSON_DEPTH = 32;
/** No operation takes an object of more fields; arrays are not objects here (a list may be longer). */
const MAX_OBJECT_KEYS = 64;

/** A request with its body as it arrived (absent when it had none). */
export type RequestWithRawBody = { rawBody?: string };

/**
 * JSON only: every other content type is answered 415 by Fastify. A body is refused (400) when it is not JSON, carries
 * a prototype-pollution key, nests deeper than 32 levels or holds an object of more than 64 keys (which validation would
 * otherwise spend time on, key by key); one holding a number a double would change is refused by
 * the validation pipe, after authentication (see exact-numbers.ts).
 */
export function acceptJsonBodiesOnly(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // Kept as received: a retry with an Idempotency-Key is compared byte for byte (src/idempotency).
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

/** Why a parsed body is refused before validation: nested too deep, or an object with too many keys. */
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
