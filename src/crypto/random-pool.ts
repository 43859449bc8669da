import { randomBytes, randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let used = POOL_BYTES;

// Each randomBytes() call costs a getpid() (OpenSSL's fork check): 10 µs and more under load, three per configuration added.
export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL_BYTES) return randomBytes(size);
  if (used + size > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const bytes = Buffer.from(pool.subarray(used, used + size));
  pool.fill(0, used, used + size);
  used += size;
  return bytes;
}
