import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import { EncryptionKey } from '../config/app-config';
import { DerivedKeys, deriveKeys } from './derived-keys';
import { pooledRandomBytes } from './random-pool';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const FIELD_V2_MARKER = 'v2:';
// A v1 token starts with its key id's length (1 to 32), never this byte.
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
  // Of '' when there is no apiKey.
  apiKeyFingerprint: string;
}

export interface VerifyApiKeyIssue {
  credentialVersion: number;
  issuingKeyTag: string;
  hasApiKey: boolean;
}

export interface OpenedVerifyApiKey extends VerifyApiKeyClaims {
  keyId: string;
  // Null on a token issued before tokens carried it.
  issue: VerifyApiKeyIssue | null;
}

// The formats, old and new, are described in docs/operations.md, How values are sealed.
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

  fingerprint(apiKey: string, keyId = this.currentKeyId): string {
    const key = this.keysById.get(keyId);
    if (!key) throw new UnsealError('unknown key id');
    return createHmac('sha256', key.fingerprint).update(apiKey).digest('base64url');
  }

  // The previous release reads the first three claims, so these tokens resolve there too during a rolling deploy.
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

// A number and its decimal string are one owner: drivers return ids either way.
export interface SealContext {
  table: string;
  column: string;
  owner: string | number;
}

const FIELD_AAD_V2 = 'registry:field:v2';

// NUL-separated, owner last: no name holds a NUL, so no two contexts collide.
export function sealedFieldAad(keyId: string, context: SealContext): Buffer {
  return Buffer.from(`${FIELD_AAD_V2}\0${keyId}\0${context.table}\0${context.column}\0${context.owner}`);
}
