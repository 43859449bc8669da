import { checksumOf, generateScopedKey, isWellFormedScopedKey } from './scoped-key';
import { generateSecretKey } from './secret-key';

// Checksums computed apart from this code, with Python's zlib.crc32 and a base62 of its own.
const KNOWN = [
  ['rk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '176CoB'],
  ['rk_0123456789012345678901234567890123456789', '3ELbVW'],
  ['rk_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', '3MJTcI'],
  // CRC-32 2079026, below 62^4: left-padded with 0.
  ['rk_0000000000000000000000000000000000000013', '008iqg'],
];

describe('scoped-key', () => {
  describe('generateScopedKey', () => {
    it('should return rk_ followed by 46 base62 characters', () => {
      for (let i = 0; i < 100; i++) expect(generateScopedKey()).toMatch(/^rk_[0-9A-Za-z]{46}$/);
    });

    it('should end with the checksum of the 43 characters before it', () => {
      for (let i = 0; i < 100; i++) {
        const key = generateScopedKey();
        expect(key.slice(43)).toBe(checksumOf(key.slice(0, 43)));
      }
    });

    it('should return 1000 distinct keys in 1000 calls', () => {
      expect(new Set(Array.from({ length: 1000 }, () => generateScopedKey())).size).toBe(1000);
    });

    it('should draw every base62 character about equally often', () => {
      const counts = new Map<string, number>();
      for (let i = 0; i < 2000; i++)
        for (const character of generateScopedKey().slice(3, 43)) counts.set(character, (counts.get(character) ?? 0) + 1);
      // 80,000 characters, 1,290 expected each: a bias of 248 % 62 or of a modulo over 256 would be far outside this.
      expect(counts.size).toBe(62);
      for (const count of counts.values()) expect(Math.abs(count - 80000 / 62)).toBeLessThan(200);
    });
  });

  describe('checksumOf', () => {
    it.each(KNOWN)('should write the CRC-32 of %s as %s', (checked, checksum) => {
      expect(checksumOf(checked)).toBe(checksum);
    });
  });

  describe('isWellFormedScopedKey', () => {
    it.each(KNOWN)('should accept %s with its checksum %s', (checked, checksum) => {
      expect(isWellFormedScopedKey(checked + checksum)).toBe(true);
    });

    const [checked, checksum] = KNOWN[0];
    it.each([
      ['a checksum off by one character', `${checked}176CoC`],
      ['a changed character before the checksum', `rk_B${checked.slice(4)}${checksum}`],
      ['the checksum of another key', checked + KNOWN[1][1]],
      ['one character too few', `${checked}${checksum.slice(1)}`],
      ['one character too many', `${checked}${checksum}0`],
      ['another prefix', `sk_${checked.slice(3)}${checksum}`],
      ['an upper-case prefix', `RK_${checked.slice(3)}${checksum}`],
      ['a character outside base62', `${checked.slice(0, -1)}-${checksum}`],
      ['a root key', generateSecretKey()],
      ['nothing', ''],
    ])('should refuse %s', (_case, value) => {
      expect(isWellFormedScopedKey(value)).toBe(false);
    });
  });
});
