import { BadRequestException } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const WELL_FORMED = /^[\x21-\x7e]{1,255}$/;

export function idempotencyKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const value = headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !WELL_FORMED.test(value)) {
    throw new BadRequestException(`${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 visible ASCII characters, sent once`);
  }
  return value;
}
