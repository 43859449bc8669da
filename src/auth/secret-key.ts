import { pooledRandomBytes } from '../crypto/random-pool';
import { SCOPED_KEY_PREFIX, isWellFormedScopedKey } from './scoped-key';

const SECRET_KEY_FORMAT = /^sk_[A-Za-z0-9_-]{43}$/;

export function generateSecretKey(): string {
  return `sk_${pooledRandomBytes(32).toString('base64url')}`;
}

/** A key this service could have issued: a root key's shape, or a scoped key's with its checksum. Others are never looked up. */
export function isWellFormedSecretKey(value: string): boolean {
  return SECRET_KEY_FORMAT.test(value) || (value.startsWith(SCOPED_KEY_PREFIX) && isWellFormedScopedKey(value));
}
