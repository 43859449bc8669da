import { pooledRandomBytes } from '../crypto/random-pool';

const SECRET_KEY_FORMAT = /^sk_[A-Za-z0-9_-]{43}$/;

export function generateSecretKey(): string {
  return `sk_${pooledRandomBytes(32).toString('base64url')}`;
}

export function isWellFormedSecretKey(value: string): boolean {
  return SECRET_KEY_FORMAT.test(value);
}
