import nodeCrypto, { createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { EncryptionKey } from '../config/app-config';
import { sealedFieldAad, SealContext, SecretSealer, UnsealError } from './secret-sealer';

const keyA: EncryptionKey = { id: 'kidA', key: randomBytes(32) };
const keyB: EncryptionKey = { id: 'kidB', key: randomBytes(32) };
const HERE: SealContext = { table: 'sms_config', column: 'password_sealed', owner: 7 };

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
});
