import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';
import { EncryptionKey } from '../config/encryption-keys';
import { pooledRandomBytes } from './random-pool';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const FIELD_CONTEXT = 'registry:field:v1';
const TOKEN_CONTEXT = 'registry:verify-api-key:v1';

export class UnsealError extends Error {
  override name = 'UnsealError';
}

export interface VerifyApiKeyClaims {
  smsConfigId: number;
  clientId: number;
  apiKeyFingerprint: string;
}

/**
 * AES-256-GCM under versioned keys. Sealed fields read `<keyId>:<base64url(iv|tag|ciphertext)>`, so a row
 * sealed under an older key still opens after a new key is put first.
 */
export class SecretSealer {
  private readonly keysById: Map<string, EncryptionKey>;
  private readonly fingerprintKeys: Map<string, Buffer>;

  constructor(private readonly keys: EncryptionKey[]) {
    this.keysById = new Map(keys.map((key) => [key.id, key]));
    this.fingerprintKeys = new Map(
      keys.map((key) => [key.id, Buffer.from(hkdfSync('sha256', key.key, Buffer.alloc(0), 'registry:api-key-fingerprint', 32))]),
    );
  }

  get currentKeyId(): string {
    return this.keys[0].id;
  }

  seal(plaintext: string): string {
    const key = this.keys[0];
    return `${key.id}:${encrypt(key, Buffer.from(plaintext, 'utf8'), FIELD_CONTEXT).toString('base64url')}`;
  }

  open(sealed: string): string {
    const separator = sealed.indexOf(':');
    const key = this.keysById.get(sealed.slice(0, separator));
    if (separator < 1 || !key) throw new UnsealError('sealed with an unknown key');
    return decrypt(key, Buffer.from(sealed.slice(separator + 1), 'base64url'), FIELD_CONTEXT).toString('utf8');
  }

  /**
   * HMAC of an apiKey: lets a token prove which apiKey it was issued for without revealing it. A token's
   * fingerprint is checked with the key id the token was sealed under, so it still matches after a rotation.
   */
  fingerprint(apiKey: string, keyId = this.currentKeyId): string {
    const fingerprintKey = this.fingerprintKeys.get(keyId);
    if (!fingerprintKey) throw new UnsealError('unknown key id');
    return createHmac('sha256', fingerprintKey).update(apiKey).digest('base64url');
  }

  sealVerifyApiKey(claims: VerifyApiKeyClaims): string {
    const key = this.keys[0];
    const payload = Buffer.from(JSON.stringify([claims.smsConfigId, claims.clientId, claims.apiKeyFingerprint]));
    const keyId = Buffer.from(key.id, 'utf8');
    return Buffer.concat([Buffer.of(keyId.length), keyId, encrypt(key, payload, TOKEN_CONTEXT)]).toString('base64url');
  }

  openVerifyApiKey(token: string): VerifyApiKeyClaims {
    const bytes = Buffer.from(token, 'base64url');
    const keyIdLength = bytes[0] ?? 0;
    const key = this.keysById.get(bytes.subarray(1, 1 + keyIdLength).toString('utf8'));
    if (!key) throw new UnsealError('sealed with an unknown key');
    const [smsConfigId, clientId, apiKeyFingerprint] = JSON.parse(
      decrypt(key, bytes.subarray(1 + keyIdLength), TOKEN_CONTEXT).toString('utf8'),
    ) as [number, number, string];
    return { smsConfigId, clientId, apiKeyFingerprint };
  }
}

function encrypt(key: EncryptionKey, plaintext: Buffer, context: string): Buffer {
  const iv = pooledRandomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(Buffer.from(`${context}:${key.id}`));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

function decrypt(key: EncryptionKey, sealed: Buffer, context: string): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new UnsealError('sealed value is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key.key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(`${context}:${key.id}`));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new UnsealError('sealed value was altered or sealed under another key');
  }
}
