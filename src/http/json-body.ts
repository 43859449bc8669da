import { BadRequestException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { findInexactNumber } from './inexact-numbers';

const MAX_JSON_DEPTH = 32;

/**
 * JSON only: every other content type is answered 415 by Fastify. A body is refused (400) when it is not JSON, carries
 * a prototype-pollution key, nests deeper than 32 levels or holds a number a double would change.
 */
export function acceptJsonBodiesOnly(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
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
  if (isNestedDeeperThan(value, MAX_JSON_DEPTH)) {
    throw new BadRequestException(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  // Refused rather than stored rounded: an amount must be kept as sent or not at all.
  const inexact = findInexactNumber(body);
  if (inexact) {
    throw new BadRequestException(
      `${shorten(inexact.path) || 'Request body'} cannot be kept exactly as a number: ${shorten(inexact.text)} (15 significant digits always can)`,
    );
  }
  return value;
}

/** Caller-written text quoted in an answer, kept to a readable length. */
function shorten(text: string, maxLength = 64): string {
  return text.length <= maxLength ? text : `${text.slice(0, maxLength)}…`;
}

function isNestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}
