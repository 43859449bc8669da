import { hkdfSync } from 'node:crypto';
import { EncryptionKey } from '../config/encryption-keys';

/**
 * One configured key and the subkeys derived from it, one per purpose (HKDF-SHA256), so a sealed field, a verifyApiKey
 * token and a fingerprint are never made with the same key. Derived once, when the sealer is built.
 */
export interface DerivedKeys {
  id: string;
  /** The configured key itself: only opens what was sealed before subkeys existed (format v1). */
  legacy: Buffer;
  field: Buffer;
  token: Buffer;
  fingerprint: Buffer;
}

export function deriveKeys(key: EncryptionKey): DerivedKeys {
  return {
    id: key.id,
    legacy: key.key,
    field: derive(key.key, 'registry:sealed-field:v2'),
    token: derive(key.key, 'registry:verify-api-key:v2'),
    // Unchanged since v1: the fingerprints inside tokens already issued were made with it.
    fingerprint: derive(key.key, 'registry:api-key-fingerprint'),
  };
}

function derive(key: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), purpose, 32));
}
