import nodeCrypto, { createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { keylessVerifyApiKey } from '../../test/helpers/keyless-token';
import { EncryptionKey } from '../config/app-config';
import { sealedFieldAad, SealContext, SecretSealer, UnsealError, VerifyApiKeyClaims, VerifyApiKeyIssue } from './secret-sealer';

const keyA: EncryptionKey = { id: 'kidA', key: randomBytes(32) };
const keyB: EncryptionKey = { id: 'kidB', key: randomBytes(32) };
const HERE: SealContext = { table: 'sms_config', column: 'password_sealed', owner: 7 };

/** keyA of test/helpers/test-app.ts, under which the v1 vectors below were sealed. */
const legacyKey: EncryptionKey = { id: 'keyA', key: Buffer.from(Array.from({ length: 32 }, (_, index) => (index * 37 + 11) % 256)) };
/** Sealed once by SecretSealer v1 (the configured key itself, no binding to a row): kept here, not regenerated. */
const V1_PASSWORD = 'keyA:9nUVKuWTWnE-Xa2PfgFDJ1o2wPtzoQbnPKl47TKV1RuzCAXrr3yhXd31QFhxvw_7mg'; // 'password-sealed-by-v1'
const V1_API_KEY_FINGERPRINT = 'rYOsUGB-sMHajbi5kUSzSwcdNngJ6Ek4JqasHZTLdis'; // of 'api-key-sealed-by-v1'
/** A verifyApiKey issued by v1 for smsConfigId 42, clientId 7 and V1_API_KEY_FINGERPRINT. */
const V1_TOKEN = 'BGtleUF2EcVxDdv4wy-72KoyHd_zQS2sI7bzU_x_vB45NxZu5BvQnlSr682mKFdy83D8IEwoXavB-VOGTYB2TDQ-MeIYYEoxacgah4IsdyOYf2tNbw';

function aesGcmOpen(key: Buffer, sealed: Buffer, aad: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
}

/** `<keyId>:v2:<base64url>` split into its parts. */
function sealedBytes(sealed: string): { keyId: string; bytes: Buffer } {
  const [keyId, version, payload] = sealed.split(':');
  expect(version).toBe('v2');
  return { keyId, bytes: Buffer.from(payload, 'base64url') };
}

describe('SecretSealer', () => {
  describe('seal and open', () => {
    const sealer = new SecretSealer([keyA]);

    it.each([
      ['an ASCII string', 'provider-password-123'],
      ['a unicode string', 'пароль ✓ 秘密 🔐 e\u0301'],
      ['an empty string', ''],
      ['a 4096-character string', 'x'.repeat(2048) + 'é'.repeat(2048)],
    ])('should return the original plaintext for %s', (_label, plaintext) => {
      expect(sealer.open(sealer.seal(plaintext, HERE), HERE)).toBe(plaintext);
    });

    it('should prefix the sealed value with the id of the sealing key', () => {
      expect(sealer.seal('secret', HERE).startsWith('kidA:v2:')).toBe(true);
      expect(sealer.currentKeyId).toBe('kidA');
    });

    it('should use a fresh IV so the same plaintext seals to different values', () => {
      const first = sealer.seal('same plaintext', HERE);
      const second = sealer.seal('same plaintext', HERE);
      expect(first).not.toBe(second);
      expect(sealedBytes(first).bytes.subarray(0, 12).equals(sealedBytes(second).bytes.subarray(0, 12))).toBe(false);
      expect(sealer.open(first, HERE)).toBe('same plaintext');
      expect(sealer.open(second, HERE)).toBe('same plaintext');
    });

    it('should produce distinct IVs across many seals', () => {
      const ivs = new Set(Array.from({ length: 200 }, () => sealedBytes(sealer.seal('v', HERE)).bytes.subarray(0, 12).toString('hex')));
      expect(ivs.size).toBe(200);
    });

    it('should not reveal the plaintext, nor its base64 or base64url encoding', () => {
      const plaintext = 'my-very-recognisable-provider-api-key-0123456789';
      const sealed = sealer.seal(plaintext, HERE);
      expect(sealed).not.toContain(plaintext);
      expect(sealed).not.toContain(Buffer.from(plaintext).toString('base64').slice(0, 20));
      expect(sealed).not.toContain(Buffer.from(plaintext).toString('base64url').slice(0, 20));
      expect(sealed).not.toContain(Buffer.from(plaintext).toString('hex').slice(0, 20));
      expect(sealedBytes(sealed).bytes.includes(Buffer.from(plaintext))).toBe(false);
    });

    it('should reject a value in which any byte of the sealed part was altered', () => {
      const sealed = sealer.seal('tamper me', HERE);
      const { keyId, bytes } = sealedBytes(sealed);
      for (let index = 0; index < bytes.length; index++) {
        const altered = Buffer.from(bytes);
        altered[index] ^= 0x01;
        const tampered = `${keyId}:v2:${altered.toString('base64url')}`;
        expect(() => sealer.open(tampered, HERE)).toThrow(UnsealError);
      }
    });

    it('should reject a value whose ciphertext was truncated or extended', () => {
      const { keyId, bytes } = sealedBytes(sealer.seal('length matters', HERE));
      expect(() => sealer.open(`${keyId}:v2:${bytes.subarray(0, bytes.length - 1).toString('base64url')}`, HERE)).toThrow(UnsealError);
      expect(() => sealer.open(`${keyId}:v2:${Buffer.concat([bytes, Buffer.of(0)]).toString('base64url')}`, HERE)).toThrow(UnsealError);
      expect(() => sealer.open(`${keyId}:v2:${bytes.subarray(0, 20).toString('base64url')}`, HERE)).toThrow(UnsealError);
      expect(() => sealer.open(`${keyId}:v2:`, HERE)).toThrow(UnsealError);
      expect(() => sealer.open(`${keyId}:`, HERE)).toThrow(UnsealError);
    });

    it('should reject a value sealed with an unknown key id', () => {
      const sealed = sealer.seal('secret', HERE);
      expect(() => sealer.open(sealed.replace(/^kidA:/, 'kidZ:'), HERE)).toThrow(UnsealError);
      expect(() => sealer.open(sealed.replace(/^kidA:/, ':'), HERE)).toThrow(UnsealError);
      expect(() => sealer.open('no-separator-at-all', HERE)).toThrow(UnsealError);
    });

    it('should reject a value whose key id was switched to another known key', () => {
      const both = new SecretSealer([keyA, keyB]);
      const sealed = both.seal('secret', HERE);
      expect(() => both.open(sealed.replace(/^kidA:/, 'kidB:'), HERE)).toThrow(UnsealError);
    });
  });

  describe('key rotation', () => {
    it('should give a token the same fingerprint after a new key is put first', () => {
      const before = new SecretSealer([keyA]);
      const after = new SecretSealer([keyB, keyA]);
      expect(after.fingerprint('provider-api-key', keyA.id)).toBe(before.fingerprint('provider-api-key'));
      expect(after.fingerprint('provider-api-key')).not.toBe(before.fingerprint('provider-api-key'));
    });

    it('should open a value sealed under [A] with a sealer holding [B, A]', () => {
      const sealed = new SecretSealer([keyA]).seal('rotated secret', HERE);
      expect(new SecretSealer([keyB, keyA]).open(sealed, HERE)).toBe('rotated secret');
    });

    it('should seal new values with the first key', () => {
      const rotated = new SecretSealer([keyB, keyA]);
      const sealed = rotated.seal('new secret', HERE);
      expect(sealed.startsWith('kidB:v2:')).toBe(true);
      expect(rotated.currentKeyId).toBe('kidB');
      expect(() => new SecretSealer([keyA]).open(sealed, HERE)).toThrow(UnsealError);
    });

    it('should not open an A-sealed value with a sealer holding only [B]', () => {
      const sealed = new SecretSealer([keyA]).seal('old secret', HERE);
      expect(() => new SecretSealer([keyB]).open(sealed, HERE)).toThrow(UnsealError);
    });

    it('should not open a value when the key under the same id was replaced', () => {
      const sealed = new SecretSealer([keyA]).seal('secret', HERE);
      const impostor = new SecretSealer([{ id: 'kidA', key: randomBytes(32) }]);
      expect(() => impostor.open(sealed, HERE)).toThrow(UnsealError);
    });
  });

  describe('verifyApiKey tokens', () => {
    const sealer = new SecretSealer([keyA]);
    const apiKey = 'provider-api-key-visible-0123456789';
    const claims: VerifyApiKeyClaims = { smsConfigId: 42, clientId: 7, apiKeyFingerprint: sealer.fingerprint(apiKey) };
    const issue: VerifyApiKeyIssue = { credentialVersion: 3, issuingKeyTag: 'c0ffee'.repeat(5) + 'ab', hasApiKey: true };

    it('should produce a base64url token of at least 64 characters', () => {
      const token = sealer.sealVerifyApiKey(claims, issue);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(token.length).toBeGreaterThanOrEqual(64);
    });

    it('should return the same claims when the token is opened', () => {
      expect(sealer.openVerifyApiKey(sealer.sealVerifyApiKey(claims, issue))).toEqual({ ...claims, keyId: expect.any(String), issue });
    });

    it('should produce a different token each time for the same claims', () => {
      expect(sealer.sealVerifyApiKey(claims, issue)).not.toBe(sealer.sealVerifyApiKey(claims, issue));
    });

    it('should throw when a character in the middle of the token is changed', () => {
      const token = sealer.sealVerifyApiKey(claims, issue);
      const middle = Math.floor(token.length / 2);
      const replacement = token[middle] === 'A' ? 'B' : 'A';
      const altered = token.slice(0, middle) + replacement + token.slice(middle + 1);
      expect(altered).not.toBe(token);
      expect(() => sealer.openVerifyApiKey(altered)).toThrow(UnsealError);
    });

    it('should throw when any byte of the token is altered', () => {
      const bytes = Buffer.from(sealer.sealVerifyApiKey(claims, issue), 'base64url');
      for (let index = 0; index < bytes.length; index++) {
        const altered = Buffer.from(bytes);
        altered[index] ^= 0x01;
        expect(() => sealer.openVerifyApiKey(altered.toString('base64url'))).toThrow(UnsealError);
      }
    });

    it('should throw for an empty token', () => {
      expect(() => sealer.openVerifyApiKey('')).toThrow(UnsealError);
    });

    it('should not contain the apiKey or its fingerprint in clear', () => {
      const token = sealer.sealVerifyApiKey(claims, issue);
      const decoded = Buffer.from(token, 'base64url');
      expect(token).not.toContain(apiKey);
      expect(token).not.toContain(claims.apiKeyFingerprint);
      expect(decoded.includes(Buffer.from(apiKey))).toBe(false);
      expect(decoded.includes(Buffer.from(claims.apiKeyFingerprint))).toBe(false);
    });

    it('should not be accepted as a sealed field value, nor a sealed field as a token', () => {
      const sealedPart = Buffer.from(sealer.sealVerifyApiKey(claims, issue), 'base64url')
        .subarray(2 + 'kidA'.length)
        .toString('base64url');
      expect(() => sealer.open(`kidA:v2:${sealedPart}`, HERE)).toThrow(UnsealError);
      expect(() => sealer.open(`kidA:${sealedPart}`, HERE)).toThrow(UnsealError);
      const { bytes } = sealedBytes(sealer.seal(JSON.stringify([42, 7, claims.apiKeyFingerprint]), HERE));
      const keyId = Buffer.from('kidA');
      expect(() => sealer.openVerifyApiKey(Buffer.concat([Buffer.of(0xf2, 4), keyId, bytes]).toString('base64url'))).toThrow(UnsealError);
      expect(() => sealer.openVerifyApiKey(Buffer.concat([Buffer.of(4), keyId, bytes]).toString('base64url'))).toThrow(UnsealError);
    });

    it('should start with the version byte 0xf2, which no token issued before it starts with', () => {
      const bytes = Buffer.from(sealer.sealVerifyApiKey(claims, issue), 'base64url');
      expect(bytes[0]).toBe(0xf2);
      expect(bytes[1]).toBe('kidA'.length);
      expect(bytes.subarray(2, 6).toString()).toBe('kidA');
    });

    it('should open a token issued under [A] with a sealer holding [B, A]', () => {
      const token = sealer.sealVerifyApiKey(claims, issue);
      expect(new SecretSealer([keyB, keyA]).openVerifyApiKey(token)).toEqual({ ...claims, keyId: expect.any(String), issue });
    });

    it('should open a token issued before tokens named their credential version and key, with no issue', () => {
      const token = keylessVerifyApiKey(keyA, claims);
      expect(sealer.openVerifyApiKey(token)).toEqual({ ...claims, keyId: 'kidA', issue: null });
    });

    it.each([
      ['padded', (token: string) => `${token}${'='.repeat((4 - (token.length % 4)) % 4 || 4)}`],
      ['with + and / for - and _', (token: string) => token.replace(/-/g, '+').replace(/_/g, '/')],
      ['with a space inside', (token: string) => `${token.slice(0, 10)} ${token.slice(10)}`],
      ['with a trailing newline', (token: string) => `${token}\n`],
      ['with a trailing character that adds no byte', (token: string) => (token.length % 4 === 0 ? `${token}A` : token)],
    ])('should refuse the same bytes spelled %s: a token has the one spelling it was issued with', (_spelling, respell) => {
      // Ids of 1 to 8 digits: tokens of every length modulo 4.
      const tokens = Array.from({ length: 8 }, (_, digits) => sealer.sealVerifyApiKey({ ...claims, smsConfigId: 10 ** digits }, issue));
      const respelled = tokens.filter((token) => respell(token) !== token);
      expect(respelled.length).toBeGreaterThan(0);
      for (const token of respelled) {
        // The same bytes: only the spelling check stands between this and a token that opens.
        expect(Buffer.from(respell(token), 'base64url')).toEqual(Buffer.from(token, 'base64url'));
        expect(() => sealer.openVerifyApiKey(respell(token))).toThrow(new UnsealError('not spelled as issued'));
      }
    });

    it('should not open a token issued under [A] with a sealer holding only [B]', () => {
      const token = sealer.sealVerifyApiKey(claims, issue);
      expect(() => new SecretSealer([keyB]).openVerifyApiKey(token)).toThrow(UnsealError);
    });
  });

  describe('fingerprint', () => {
    it('should be deterministic for the same apiKey', () => {
      expect(new SecretSealer([keyA]).fingerprint('api-key-1')).toBe(new SecretSealer([keyA]).fingerprint('api-key-1'));
    });

    it('should differ for different apiKeys', () => {
      const sealer = new SecretSealer([keyA]);
      expect(sealer.fingerprint('api-key-1')).not.toBe(sealer.fingerprint('api-key-2'));
      expect(sealer.fingerprint('')).not.toBe(sealer.fingerprint(' '));
    });

    it('should not contain the apiKey', () => {
      const fingerprint = new SecretSealer([keyA]).fingerprint('recognisable-api-key');
      expect(fingerprint).not.toContain('recognisable-api-key');
      expect(fingerprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('should depend on the encryption key', () => {
      expect(new SecretSealer([keyA]).fingerprint('api-key-1')).not.toBe(new SecretSealer([keyB]).fingerprint('api-key-1'));
    });
  });

  describe('binding to table, column and owner', () => {
    const sealer = new SecretSealer([keyA]);
    const sealed = sealer.seal('bound secret', HERE);

    it('should open only with the table, column and owner it was sealed for', () => {
      expect(sealer.open(sealed, HERE)).toBe('bound secret');
      expect(() => sealer.open(sealed, { ...HERE, owner: 8 })).toThrow(UnsealError);
      expect(() => sealer.open(sealed, { ...HERE, column: 'api_key_sealed' })).toThrow(UnsealError);
      expect(() => sealer.open(sealed, { ...HERE, table: 'client' })).toThrow(UnsealError);
      expect(() => sealer.open(sealed, { table: 'sms_config', column: 'password_sealed7', owner: '' })).toThrow(UnsealError);
    });

    it('should take an owner id and its decimal string as the same owner', () => {
      expect(sealer.open(sealed, { ...HERE, owner: '7' })).toBe('bound secret');
      expect(sealer.open(sealer.seal('string owner', { ...HERE, owner: '7' }), HERE)).toBe('string owner');
    });

    it('should fail with the message naming neither the value nor the context', () => {
      expect(() => sealer.open(sealed, { ...HERE, owner: 8 })).toThrow(
        new UnsealError('sealed value was altered, sealed under another key or for another place'),
      );
    });
  });

  describe('key separation', () => {
    const fieldKey = Buffer.from(hkdfSync('sha256', keyA.key, Buffer.alloc(0), 'registry:sealed-field:v2', 32));
    const tokenKey = Buffer.from(hkdfSync('sha256', keyA.key, Buffer.alloc(0), 'registry:verify-api-key:v2', 32));
    const sealer = new SecretSealer([keyA]);

    it('should seal fields under the HKDF-SHA256 field subkey, not under the configured key', () => {
      const { bytes } = sealedBytes(sealer.seal('field secret', HERE));
      const aad = sealedFieldAad('kidA', HERE);
      expect(aesGcmOpen(fieldKey, bytes, aad)).toBe('field secret');
      expect(() => aesGcmOpen(keyA.key, bytes, aad)).toThrow();
      expect(() => aesGcmOpen(tokenKey, bytes, aad)).toThrow();
    });

    it('should seal verifyApiKey tokens under the HKDF-SHA256 token subkey, not under the configured key', () => {
      const bytes = Buffer.from(
        sealer.sealVerifyApiKey(
          { smsConfigId: 1, clientId: 2, apiKeyFingerprint: 'f' },
          { credentialVersion: 0, issuingKeyTag: 't', hasApiKey: false },
        ),
        'base64url',
      );
      const sealed = bytes.subarray(2 + 'kidA'.length);
      const aad = Buffer.from('registry:verify-api-key:v2:kidA');
      expect(aesGcmOpen(tokenKey, sealed, aad)).toBe('[1,2,"f",0,"t",false]');
      expect(() => aesGcmOpen(keyA.key, sealed, aad)).toThrow();
      expect(() => aesGcmOpen(fieldKey, sealed, aad)).toThrow();
    });

    it('should derive the subkeys once per key when built, never while sealing or opening', () => {
      const hkdf = jest.spyOn(nodeCrypto, 'hkdfSync');
      try {
        const rotated = new SecretSealer([keyB, keyA]);
        expect(hkdf).toHaveBeenCalledTimes(8);
        hkdf.mockClear();
        for (let i = 0; i < 10; i++) {
          rotated.open(rotated.seal('hot path', HERE), HERE);
          rotated.openVerifyApiKey(
            rotated.sealVerifyApiKey(
              { smsConfigId: i, clientId: 2, apiKeyFingerprint: rotated.fingerprint('k') },
              { credentialVersion: 0, issuingKeyTag: 't', hasApiKey: true },
            ),
          );
        }
        expect(hkdf).not.toHaveBeenCalled();
      } finally {
        hkdf.mockRestore();
      }
    });
  });

  describe('values sealed before v2', () => {
    const sealer = new SecretSealer([legacyKey]);

    it('should open a v1 field, whatever the context, since v1 bound none', () => {
      expect(sealer.open(V1_PASSWORD, HERE)).toBe('password-sealed-by-v1');
      expect(sealer.open(V1_PASSWORD, { table: 'sms_config', column: 'api_key_sealed', owner: 99 })).toBe('password-sealed-by-v1');
    });

    it('should open a v1 field after a new key is put first', () => {
      expect(new SecretSealer([keyB, legacyKey]).open(V1_PASSWORD, HERE)).toBe('password-sealed-by-v1');
    });

    it('should reject a v1 field in which any byte was altered', () => {
      const bytes = Buffer.from(V1_PASSWORD.slice('keyA:'.length), 'base64url');
      for (let index = 0; index < bytes.length; index++) {
        const altered = Buffer.from(bytes);
        altered[index] ^= 0x01;
        expect(() => sealer.open(`keyA:${altered.toString('base64url')}`, HERE)).toThrow(UnsealError);
      }
    });

    it('should not open a v2 field whose version marker was removed, nor one marked with an unknown version', () => {
      const sealed = sealer.seal('current format', HERE);
      expect(() => sealer.open(sealed.replace(':v2:', ':'), HERE)).toThrow(UnsealError);
      expect(() => sealer.open(sealed.replace(':v2:', ':v3:'), HERE)).toThrow(new UnsealError('sealed in an unknown format'));
    });

    it('should open a v1 verifyApiKey token, with the fingerprint of its apiKey under its key', () => {
      expect(sealer.openVerifyApiKey(V1_TOKEN)).toEqual({
        smsConfigId: 42,
        clientId: 7,
        apiKeyFingerprint: V1_API_KEY_FINGERPRINT,
        keyId: expect.any(String),
        issue: null,
      });
      expect(new SecretSealer([keyB, legacyKey]).fingerprint('api-key-sealed-by-v1', 'keyA')).toBe(V1_API_KEY_FINGERPRINT);
    });

    it('should reject a v1 token in which any byte was altered, or which was given the v2 version byte', () => {
      const bytes = Buffer.from(V1_TOKEN, 'base64url');
      for (let index = 0; index < bytes.length; index++) {
        const altered = Buffer.from(bytes);
        altered[index] ^= 0x01;
        expect(() => sealer.openVerifyApiKey(altered.toString('base64url'))).toThrow(UnsealError);
      }
      expect(() => sealer.openVerifyApiKey(Buffer.concat([Buffer.of(0xf2), bytes]).toString('base64url'))).toThrow(UnsealError);
    });
  });
});
