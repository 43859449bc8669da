import { createHash } from 'node:crypto';

/**
 * SHA-256 of a credential. A secret key is stored, cached and rate-limited only under its digest (hex); admin keys are
 * compared as digests (bytes), so comparisons take the same time whatever the key's length.
 */
export function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
