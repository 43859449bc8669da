import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import { EncryptionKey } from '../config/encryption-keys';
import { DerivedKeys, deriveKeys } from './derived-keys';
import { pooledRandomBytes } from './random-pool';
import { SealContext, sealedFieldAad } from './seal-context';

export type { SealContext } from './seal-context';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Sealed fields of format v2 read `<keyId>:v2:<base64url>`; a v1 field, `<keyId>:<base64url>`, has no second colon. */
const FIELD_V2_MARKER = 'v2:';
/** A v1 token starts with the length of its key id (1 to 32): no v1 token starts with this byte. */
const TOKEN_V2_MARKER = 0xf2;
const FIELD_AAD_V1 = 'registry:field:v1';
const TOKEN_AAD_V1 = 'registry:verify-api-key:v1';
const TOKEN_AAD_V2 = 'registry:verify-api-key:v2';

export class UnsealError extends Error {
  override name = 'UnsealError';
}

export interface VerifyApiKeyClaims {
  smsConfigId: number;
  clientId: number;
  /** HMAC of the apiKey, or of '' when there is none (tokens before the credential version could not tell the two). */
  apiKeyFingerprint: string;
}

/** What a token is issued for, beyond the claims every token has had. */
export interface VerifyApiKeyIssue {
  /** The configuration's credential version: a change of a destination or a credential makes the token stale. */
  credentialVersion: number;
  /** The secret key that obtained the token (its issuingKeyTag): the token lives only while that key authenticates. */
  issuingKeyTag: string;
  hasApiKey: boolean;
}

/**
 * An opened token: its claims, the key id it was sealed under (its fingerprint is checked with that key), and what it
 * was issued for; `issue` is null on a token issued before tokens carried it.
 */
export interface OpenedVerifyApiKey extends VerifyApiKeyClaims {
  keyId: string;
  issue: VerifyApiKeyIssue | null;
}

/**
 * AES-256-GCM under versioned keys, each purpose under its own subkey of the configured key (see derived-keys.ts).
 * Sealed fields read `<keyId>:v2:<base64url(iv|tag|ciphertext)>`, authenticated with the table, column and owner of
 * the row (see seal-context.ts); a row sealed under an older key still opens after a new key is put first, and a row
 * sealed before v2 (`<keyId>:<base64url>`, the configured key itself, no binding to its row) still opens too.
 */
export class SecretSealer {
  private readonly keys: DerivedKeys[];
  private readonly keysById: Map<string, DerivedKeys>;

  constructor(keys: EncryptionKey[]) {
    this.keys = keys.map(deriveKeys);
    this.keysById = new Map(this.keys.map((key) => [key.id, key]));
  }

  get currentKeyId(): string {
    return this.keys[0].id;
  }

  seal(plaintext: string, context: SealContext): string {
    const key = this.keys[0];
    const sealed = encrypt(key.field, Buffer.from(plaintext, 'utf8'), sealedFieldAad(key.id, context));
    return `${key.id}:${FIELD_V2_MARKER}${sealed.toString('base64url')}`;
  }

  /** Throws UnsealError unless the value was sealed by a configured key for this very table, column and owner. */
  open(sealed: string, context: SealContext): string {
    const separator = sealed.indexOf(':');
    const key = this.keysById.get(sealed.slice(0, separator));
    if (separator < 1 || !key) throw new UnsealError('sealed with an unknown key');
    const rest = sealed.slice(separator + 1);
    if (rest.startsWith(FIELD_V2_MARKER)) {
      const bytes = Buffer.from(rest.slice(FIELD_V2_MARKER.length), 'base64url');
      return decrypt(key.field, bytes, sealedFieldAad(key.id, context)).toString('utf8');
    }
    if (rest.includes(':')) throw new UnsealError('sealed in an unknown format');
    return decrypt(key.legacy, Buffer.from(rest, 'base64url'), Buffer.from(`${FIELD_AAD_V1}:${key.id}`)).toString('utf8');
  }

  /**
   * HMAC of an apiKey: lets a token prove which apiKey it was issued for without revealing it. A token's
   * fingerprint is checked with the key id the token was sealed under, so it still matches after a rotation.
   */
  fingerprint(apiKey: string, keyId = this.currentKeyId): string {
    const key = this.keysById.get(keyId);
    if (!key) throw new UnsealError('unknown key id');
    return createHmac('sha256', key.fingerprint).update(apiKey).digest('base64url');
  }

  /**
   * `0xf2 | keyId length | keyId | iv | tag | ciphertext`, base64url. The sealed JSON array starts with the three claims
   * the previous release reads (it ignores the rest), so a token issued here still resolves there during a rolling deploy.
   */
  sealVerifyApiKey(claims: VerifyApiKeyClaims, issue: VerifyApiKeyIssue): string {
    const key = this.keys[0];
    const payload = Buffer.from(
      JSON.stringify([
        claims.smsConfigId,
        claims.clientId,
        claims.apiKeyFingerprint,
        issue.credentialVersion,
        issue.issuingKeyTag,
        issue.hasApiKey,
      ]),
    );
    const keyId = Buffer.from(key.id, 'utf8');
    const sealed = encrypt(key.token, payload, Buffer.from(`${TOKEN_AAD_V2}:${key.id}`));
    return Buffer.concat([Buffer.of(TOKEN_V2_MARKER, keyId.length), keyId, sealed]).toString('base64url');
  }

  /**
   * Opens tokens of both formats: those issued before v2 (`keyId length | keyId | ...`) are in callers' hands. A token has
   * one spelling, the unpadded base64url it was issued as: any other spelling of the same bytes is refused.
   */
  openVerifyApiKey(token: string): OpenedVerifyApiKey {
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.toString('base64url') !== token) throw new UnsealError('not spelled as issued');
    const isV2 = bytes[0] === TOKEN_V2_MARKER;
    const keyIdStart = isV2 ? 2 : 1;
    const keyIdLength = bytes[keyIdStart - 1] ?? 0;
    const key = this.keysById.get(bytes.subarray(keyIdStart, keyIdStart + keyIdLength).toString('utf8'));
    if (!key) throw new UnsealError('sealed with an unknown key');
    const sealed = bytes.subarray(keyIdStart + keyIdLength);
    const payload = isV2
      ? decrypt(key.token, sealed, Buffer.from(`${TOKEN_AAD_V2}:${key.id}`))
      : decrypt(key.legacy, sealed, Buffer.from(`${TOKEN_AAD_V1}:${key.id}`));
    const [smsConfigId, clientId, apiKeyFingerprint, credentialVersion, issuingKeyTag, hasApiKey] = JSON.parse(
      payload.toString('utf8'),
    ) as [number, number, string, number?, string?, boolean?];
    const issue = credentialVersion === undefined ? null : { credentialVersion, issuingKeyTag: issuingKeyTag!, hasApiKey: hasApiKey! };
    return { smsConfigId, clientId, apiKeyFingerprint, keyId: key.id, issue };
  }
}

function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const iv = pooledRandomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

function decrypt(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new UnsealError('sealed value is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new UnsealError('sealed value was altered, sealed under another key or for another place');
  }
}
