import { hash } from 'node:crypto';

// crypto.hash, one call without a Hash object: a third of createHash's time on get-client's key (BENCHMARKS.md).
// Admin keys are compared as digests, so comparisons take the same time whatever the key's length.
export function sha256(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}
