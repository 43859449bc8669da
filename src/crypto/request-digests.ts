import { createHmac } from 'node:crypto';
import { EncryptionKey } from '../config/encryption-keys';
import { deriveKeys } from './derived-keys';

/** A request's digest and the id of the key whose subkey made it. */
export interface RequestDigest {
  keyId: string;
  /** HMAC-SHA256, hex: 64 characters. */
  digest: string;
}

/**
 * The digest that recognises a request retried with its Idempotency-Key: an HMAC under a subkey of its own of each
 * configured key, never a plain hash, since the request's body may hold a password or an apiKey and a copy of the
 * database must give no way to test guesses of them. A digest is recomputed under the key that made it, so a request
 * kept before a new key was put first is still recognised.
 */
export class RequestDigests {
  private readonly keysById: Map<string, Buffer>;
  readonly currentKeyId: string;

  constructor(keys: EncryptionKey[]) {
    const derived = keys.map(deriveKeys);
    this.keysById = new Map(derived.map((key) => [key.id, key.requestDigest]));
    this.currentKeyId = derived[0].id;
  }

  /** The digest of `request` under the subkey of `keyId` (the first key by default); null when that key is not listed. */
  digest(request: string): RequestDigest;
  digest(request: string, keyId: string): RequestDigest | null;
  digest(request: string, keyId = this.currentKeyId): RequestDigest | null {
    const key = this.keysById.get(keyId);
    if (key === undefined) return null;
    return { keyId, digest: createHmac('sha256', key).update(request, 'utf8').digest('hex') };
  }
}
