import { createHmac } from 'node:crypto';
import { EncryptionKey } from '../config/app-config';
import { deriveKeys } from './derived-keys';

export interface RequestDigest {
  keyId: string;
  digest: string;
}

// An HMAC, never a plain hash: a body may hold a password, and a copy of the database must not let anyone test guesses.
export class RequestDigests {
  private readonly keysById: Map<string, Buffer>;
  readonly currentKeyId: string;

  constructor(keys: EncryptionKey[]) {
    const derived = keys.map(deriveKeys);
    this.keysById = new Map(derived.map((key) => [key.id, key.requestDigest]));
    this.currentKeyId = derived[0].id;
  }

  digest(request: string): RequestDigest;
  digest(request: string, keyId: string): RequestDigest | null;
  digest(request: string, keyId = this.currentKeyId): RequestDigest | null {
    const key = this.keysById.get(keyId);
    if (key === undefined) return null;
    return { keyId, digest: createHmac('sha256', key).update(request, 'utf8').digest('hex') };
  }
}
