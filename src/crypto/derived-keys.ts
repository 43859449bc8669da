import { hkdfSync } from 'node:crypto';
import { EncryptionKey } from '../config/app-config';

export interface DerivedKeys {
  id: string;
  // Opens only what was sealed before subkeys existed (v1).
  legacy: Buffer;
  field: Buffer;
  token: Buffer;
  fingerprint: Buffer;
  requestDigest: Buffer;
}

export function deriveKeys(key: EncryptionKey): DerivedKeys {
  return {
    id: key.id,
    legacy: key.key,
    field: derive(key.key, 'registry:sealed-field:v2'),
    token: derive(key.key, 'registry:verify-api-key:v2'),
    // Unchanged since v1: the fingerprints inside tokens already issued were made with it.
    fingerprint: derive(key.key, 'registry:api-key-fingerprint'),
    requestDigest: derive(key.key, 'registry:idempotent-request-digest:v1'),
  };
}

function derive(key: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), purpose, 32));
}
