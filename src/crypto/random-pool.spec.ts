import { pooledRandomBytes } from './random-pool';

describe('pooledRandomBytes', () => {
  it('should hand out the size asked for, up to the pool and past it', () => {
    for (const size of [1, 12, 32, 4096, 4097, 10_000]) expect(pooledRandomBytes(size)).toHaveLength(size);
  });

  it('should never hand out the same bytes twice, across many refills of the pool', () => {
    const seen = new Set(Array.from({ length: 20_000 }, () => pooledRandomBytes(12).toString('hex')));
    expect(seen.size).toBe(20_000);
  });

  it('should hand out a copy that later draws and refills do not change', () => {
    const bytes = pooledRandomBytes(32);
    const copy = Buffer.from(bytes);
    for (let i = 0; i < 1000; i++) pooledRandomBytes(32);
    expect(bytes.equals(copy)).toBe(true);
  });

  it('should look random: every byte value appears, none far more often than the others', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 2000; i++) for (const byte of pooledRandomBytes(32)) counts[byte]++;
    // 64,000 bytes: 250 of each value expected; a wiped (zeroed) or repeated pool would show as a spike.
    expect(Math.min(...counts)).toBeGreaterThan(150);
    expect(Math.max(...counts)).toBeLessThan(350);
  });
});
