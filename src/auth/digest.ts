import { createHash } from 'node:crypto';

// Admin keys are compared as digests, so comparisons take the same time whatever the key's length.
export function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
