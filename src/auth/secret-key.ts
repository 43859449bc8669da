import { pooledRandomBytes } from '../crypto/random-pool';

const SECRET_KEY_FORMAT = /^sk_[A-Za-z0-9_-]{43}$/;

/** A client's secret key: `sk_` + 32 random bytes, base64url. */
export function generateSecretKey(): string {
  return `sk_${pooledRandomBytes(32).toString('base64url')}`;
}

/** A string that cannot be a key we issued is refused before any lookup. */
export function isWellFormedSecretKey(value: string): boolean {
  return SECRET_KEY_FORMAT.test(value);
}
