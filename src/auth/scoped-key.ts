import { crc32 } from 'node:zlib';
import { pooledRandomBytes } from '../crypto/random-pool';

export const SCOPED_KEY_PREFIX = 'rk_';
export const SCOPED_KEY_FORMAT = /^rk_[0-9A-Za-z]{46}$/;

/** Which keys a key is among: a client's root keys (current and previous), or its scoped keys. */
export type KeyShape = 'root' | 'scoped';

export function shapeOf(secretKey: string): KeyShape {
  return secretKey.startsWith(SCOPED_KEY_PREFIX) ? 'scoped' : 'root';
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARACTERS = 40;
const CHECKSUM_CHARACTERS = 6;
const CHECKED_LENGTH = SCOPED_KEY_PREFIX.length + RANDOM_CHARACTERS;
// 248 is 4 × 62: a byte at or above it is drawn again, so that every character is equally likely.
const UNBIASED_BYTES_BELOW = 248;

/** `rk_`, 40 base62 characters from a CSPRNG, and the CRC-32 of the 43 before them in 6 base62 characters. */
export function generateScopedKey(): string {
  let key = SCOPED_KEY_PREFIX;
  while (key.length < CHECKED_LENGTH) {
    for (const byte of pooledRandomBytes(RANDOM_CHARACTERS)) {
      if (byte < UNBIASED_BYTES_BELOW && key.length < CHECKED_LENGTH) key += BASE62[byte % 62];
    }
  }
  return key + checksumOf(key);
}

/** Whether a presented value has a scoped key's shape and checksum: one that does not is never looked up. */
export function isWellFormedScopedKey(value: string): boolean {
  return SCOPED_KEY_FORMAT.test(value) && checksumOf(value.slice(0, CHECKED_LENGTH)) === value.slice(CHECKED_LENGTH);
}

// Most significant digit first, left-padded with 0: 62^6 holds every 32-bit value.
export function checksumOf(checked: string): string {
  let remaining = crc32(checked);
  let digits = '';
  for (let i = 0; i < CHECKSUM_CHARACTERS; i++) {
    digits = BASE62[remaining % 62] + digits;
    remaining = Math.floor(remaining / 62);
  }
  return digits;
}
