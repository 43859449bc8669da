import { randomBytes, randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let used = POOL_BYTES;

/**
 * `size` bytes from the CSPRNG, drawn from it 4 KiB at a time. Each call of randomBytes() costs a getpid() system
 * call (OpenSSL's check for a fork), which measured 10 µs and more under load here, three times per SMS configuration
 * added; Node's randomUUID() pools its entropy the same way. Handed-out bytes are copied, and wiped from the pool.
 */
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
