import { randomBytes } from 'node:crypto';
import { EncryptionKey } from '../config/encryption-keys';
import { SecretSealer, UnsealError, VerifyApiKeyClaims } from './secret-sealer';

const keyA: EncryptionKey = { id: 'kidA', key: randomBytes(32) };
const keyB: EncryptionKey = { id: 'kidB', key: randomBytes(32) };

function sealedBytes(sealed: string): { keyId: string; bytes: Buffer } {
  const separator = sealed.indexOf(':');
  return { keyId: sealed.slice(0, separator), bytes: Buffer.from(sealed.slice(separator + 1), 'base64url') };
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
      expect(sealer.open(sealer.seal(plaintext))).toBe(plaintext);
    });

    it('should prefix the sealed value with the id of the sealing key', () => {
      expect(sealer.seal('secret').startsWith('kidA:')).toBe(true);
      expect(sealer.currentKeyId).toBe('kidA');
    });

    it('should use a fresh IV so the same plaintext seals to different values', () => {
      const first = sealer.seal('same plaintext');
      const second = sealer.seal('same plaintext');
      expect(first).not.toBe(second);
      expect(sealedBytes(first).bytes.subarray(0, 12).equals(sealedBytes(second).bytes.subarray(0, 12))).toBe(false);
      expect(sealer.open(first)).toBe('same plaintext');
      expect(sealer.open(second)).toBe('same plaintext');
    });

    it('should produce distinct IVs across many seals', () => {
      const ivs = new Set(Array.from({ length: 200 }, () => sealedBytes(sealer.seal('v')).bytes.subarray(0, 12).toString('hex')));
      expect(ivs.size).toBe(200);
    });

    it('should not reveal the plaintext, nor its base64 or base64url encoding', () => {
      const plaintext = 'my-very-recognisable-provider-api-key-0123456789';
      const sealed = sealer.seal(plaintext);
      expect(sealed).not.toContain(plaintext);
      expect(sealed).not.toContain(Buffer.from(plaintext).toString('base64').slice(0, 20));
      expect(sealed).not.toContain(Buffer.from(plaintext).toString('base64url').slice(0, 20));
      expect(sealed).not.toContain(Buffer.from(plaintext).toString('hex').slice(0, 20));
      expect(sealedBytes(sealed).bytes.includes(Buffer.from(plaintext))).toBe(false);
    });

    it('should reject a value in which any byte of the sealed part was altered', () => {
      const sealed = sealer.seal('tamper me');
      const { keyId, bytes } = sealedBytes(sealed);
      for (let index = 0; index < bytes.length; index++) {
        const altered = Buffer.from(bytes);
        altered[index] ^= 0x01;
        const tampered = `${keyId}:${altered.toString('base64url')}`;
        expect(() => sealer.open(tampered)).toThrow(UnsealError);
      }
    });

    it('should reject a value whose ciphertext was truncated or extended', () => {
      const { keyId, bytes } = sealedBytes(sealer.seal('length matters'));
      expect(() => sealer.open(`${keyId}:${bytes.subarray(0, bytes.length - 1).toString('base64url')}`)).toThrow(UnsealError);
      expect(() => sealer.open(`${keyId}:${Buffer.concat([bytes, Buffer.of(0)]).toString('base64url')}`)).toThrow(UnsealError);
      expect(() => sealer.open(`${keyId}:${bytes.subarray(0, 20).toString('base64url')}`)).toThrow(UnsealError);
      expect(() => sealer.open(`${keyId}:`)).toThrow(UnsealError);
    });

    it('should reject a value sealed with an unknown key id', () => {
      const sealed = sealer.seal('secret');
      expect(() => sealer.open(sealed.replace(/^kidA:/, 'kidZ:'))).toThrow(UnsealError);
      expect(() => sealer.open(sealed.replace(/^kidA:/, ':'))).toThrow(UnsealError);
      expect(() => sealer.open('no-separator-at-all')).toThrow(UnsealError);
    });

    it('should reject a value whose key id was switched to another known key', () => {
      const both = new SecretSealer([keyA, keyB]);
      const sealed = both.seal('secret');
      expect(() => both.open(sealed.replace(/^kidA:/, 'kidB:'))).toThrow(UnsealError);
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
      const sealed = new SecretSealer([keyA]).seal('rotated secret');
      expect(new SecretSealer([keyB, keyA]).open(sealed)).toBe('rotated secret');
    });

    it('should seal new values with the first key', () => {
      const rotated = new SecretSealer([keyB, keyA]);
      const sealed = rotated.seal('new secret');
      expect(sealed.startsWith('kidB:')).toBe(true);
      expect(rotated.currentKeyId).toBe('kidB');
      expect(() => new SecretSealer([keyA]).open(sealed)).toThrow(UnsealError);
    });

    it('should not open an A-sealed value with a sealer holding only [B]', () => {
      const sealed = new SecretSealer([keyA]).seal('old secret');
      expect(() => new SecretSealer([keyB]).open(sealed)).toThrow(UnsealError);
    });

    it('should not open a value when the key under the same id was replaced', () => {
      const sealed = new SecretSealer([keyA]).seal('secret');
      const impostor = new SecretSealer([{ id: 'kidA', key: randomBytes(32) }]);
      expect(() => impostor.open(sealed)).toThrow(UnsealError);
    });
  });

  describe('verifyApiKey tokens', () => {
    const sealer = new SecretSealer([keyA]);
    const apiKey = 'provider-api-key-visible-0123456789';
    const claims: VerifyApiKeyClaims = { smsConfigId: 42, clientId: 7, apiKeyFingerprint: sealer.fingerprint(apiKey) };

    it('should produce a base64url token of at least 64 characters', () => {
      const token = sealer.sealVerifyApiKey(claims);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(token.length).toBeGreaterThanOrEqual(64);
    });

    it('should return the same claims when the token is opened', () => {
      expect(sealer.openVerifyApiKey(sealer.sealVerifyApiKey(claims))).toEqual(claims);
    });

    it('should produce a different token each time for the same claims', () => {
      expect(sealer.sealVerifyApiKey(claims)).not.toBe(sealer.sealVerifyApiKey(claims));
    });

    it('should throw when a character in the middle of the token is changed', () => {
      const token = sealer.sealVerifyApiKey(claims);
      const middle = Math.floor(token.length / 2);
      const replacement = token[middle] === 'A' ? 'B' : 'A';
      const altered = token.slice(0, middle) + replacement + token.slice(middle + 1);
      expect(altered).not.toBe(token);
      expect(() => sealer.openVerifyApiKey(altered)).toThrow(UnsealError);
    });

    it('should throw when any byte of the token is altered', () => {
      const bytes = Buffer.from(sealer.sealVerifyApiKey(claims), 'base64url');
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
      const token = sealer.sealVerifyApiKey(claims);
      const decoded = Buffer.from(token, 'base64url');
      expect(token).not.toContain(apiKey);
      expect(token).not.toContain(claims.apiKeyFingerprint);
      expect(decoded.includes(Buffer.from(apiKey))).toBe(false);
      expect(decoded.includes(Buffer.from(claims.apiKeyFingerprint))).toBe(false);
    });

    it('should not be accepted as a sealed field value, nor a sealed field as a token', () => {
      const token = sealer.sealVerifyApiKey(claims);
      expect(() =>
        sealer.open(
          `kidA:${Buffer.from(token, 'base64url')
            .subarray(1 + 'kidA'.length)
            .toString('base64url')}`,
        ),
      ).toThrow(UnsealError);
      const { bytes } = sealedBytes(sealer.seal(JSON.stringify([42, 7, claims.apiKeyFingerprint])));
      const fieldAsToken = Buffer.concat([Buffer.of(4), Buffer.from('kidA'), bytes]).toString('base64url');
      expect(() => sealer.openVerifyApiKey(fieldAsToken)).toThrow(UnsealError);
    });

    it('should open a token issued under [A] with a sealer holding [B, A]', () => {
      const token = sealer.sealVerifyApiKey(claims);
      expect(new SecretSealer([keyB, keyA]).openVerifyApiKey(token)).toEqual(claims);
    });

    it('should not open a token issued under [A] with a sealer holding only [B]', () => {
      const token = sealer.sealVerifyApiKey(claims);
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
});
