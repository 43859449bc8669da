import { createCipheriv, randomBytes } from 'node:crypto';
import { EncryptionKey } from '../../src/config/app-config';
import { deriveKeys } from '../../src/crypto/derived-keys';
import { VerifyApiKeyClaims } from '../../src/crypto/secret-sealer';

/**
 * A verifyApiKey as the release before credential versions issued it: format v2 over the three claims only, naming no
 * credential version and no secret key. Built here byte for byte, since the service no longer issues one.
 */
export function keylessVerifyApiKey(encryptionKey: EncryptionKey, claims: VerifyApiKeyClaims): string {
  const key = deriveKeys(encryptionKey);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.token, iv);
  cipher.setAAD(Buffer.from(`registry:verify-api-key:v2:${key.id}`));
  const payload = Buffer.from(JSON.stringify([claims.smsConfigId, claims.clientId, claims.apiKeyFingerprint]));
  const ciphertext = Buffer.concat([cipher.update(payload), cipher.final()]);
  const keyId = Buffer.from(key.id);
  return Buffer.concat([Buffer.of(0xf2, keyId.length), keyId, iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}
