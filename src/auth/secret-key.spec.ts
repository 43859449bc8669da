import { sha256Hex } from './digest';
import { generateSecretKey, isWellFormedSecretKey } from './secret-key';

describe('secret-key', () => {
  describe('generateSecretKey', () => {
    it('should return sk_ followed by 43 base64url characters', () => {
      expect(generateSecretKey()).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    });

    it('should encode 32 random bytes', () => {
      expect(Buffer.from(generateSecretKey().slice(3), 'base64url')).toHaveLength(32);
    });

    it('should return 1000 distinct keys in 1000 calls', () => {
      const keys = new Set(Array.from({ length: 1000 }, () => generateSecretKey()));
      expect(keys.size).toBe(1000);
    });

    it('should return keys that isWellFormedSecretKey accepts', () => {
      for (let i = 0; i < 100; i++) expect(isWellFormedSecretKey(generateSecretKey())).toBe(true);
    });
  });

  describe('isWellFormedSecretKey', () => {
    const body = 'A'.repeat(20) + 'b9_-' + 'z'.repeat(19);

    it('should accept sk_ followed by 43 base64url characters', () => {
      expect(body).toHaveLength(43);
      expect(isWellFormedSecretKey(`sk_${body}`)).toBe(true);
    });

    it.each([
      ['a wrong prefix', `pk_${body}`],
      ['an upper-case prefix', `SK_${body}`],
      ['no prefix', body],
      ['a missing underscore in the prefix', `sk${body}`],
      ['one character too few', `sk_${body.slice(1)}`],
      ['one character too many', `sk_${body}x`],
      ['a + character (base64, not base64url)', `sk_${body.slice(1)}+`],
      ['a / character', `sk_${body.slice(1)}/`],
      ['a = padding character', `sk_${body.slice(1)}=`],
      ['a space', `sk_${body.slice(1)} `],
      ['a trailing newline', `sk_${body}\n`],
      ['a leading space', ` sk_${body}`],
      ['a non-ASCII letter', `sk_${body.slice(1)}é`],
      ['an empty string', ''],
    ])('should reject %s', (_label, value) => {
      expect(isWellFormedSecretKey(value)).toBe(false);
    });
  });

  describe('sha256Hex', () => {
    it('should match the known SHA-256 vector for "abc"', () => {
      expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    });

    it('should match the known SHA-256 vector for the empty string', () => {
      expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    });

    it('should hash the UTF-8 bytes of the value', () => {
      expect(sha256Hex('é')).not.toBe(sha256Hex('e\u0301'));
      expect(sha256Hex('é')).toMatch(/^[0-9a-f]{64}$/);
    });
  });
});
