import { randomBytes } from 'node:crypto';
import { keylessVerifyApiKey } from '../../test/helpers/keyless-token';
import { EncryptionKey } from '../config/app-config';
import { SealContext, SecretSealer, UnsealError, VerifyApiKeyClaims, VerifyApiKeyIssue } from './secret-sealer';

const keyA: EncryptionKey = { id: 'kidA', key: randomBytes(32) };
const keyB: EncryptionKey = { id: 'kidB', key: randomBytes(32) };
const HERE: SealContext = { table: 'sms_config', column: 'password_sealed', owner: 7 };

/** `<keyId>:v2:<base64url>` split into its parts. */
function sealedBytes(sealed: string): { keyId: string; bytes: Buffer } {
  const [keyId, version, payload] = sealed.split(':');
  expect(version).toBe('v2');
  return { keyId, bytes: Buffer.from(payload, 'base64url') };
}

describe('SecretSealer', () => {
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
});
