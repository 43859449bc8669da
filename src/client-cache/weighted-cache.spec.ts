import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { WeightedTinyLfuCache } from './weighted-cache';

const KB = 1024;

/** A hex SHA-256 digest, as the service's keys are. */
const digest = (name: string) => createHash('sha256').update(name).digest('hex');

/** A Lehmer generator: the same pseudo-random sequence on every run. */
function randomSource(seed: number): () => number {
  let state = (seed % 2147483646) + 1;
  return () => (state = (state * 48271) % 2147483647) / 2147483647;
}

/** What the service does for a request: get, and on a miss set. */
function request(cache: { get(key: string): unknown; set(key: string, value: string, bytes: number): unknown }, key: string, bytes = KB) {
  if (cache.get(key) === undefined) cache.set(key, `answer of ${key}`, bytes);
}

/** lru-cache bounded in bytes, as the service used it, behind the same calls. */
function lruOfBytes(maxBytes: number) {
  const lru = new LRUCache<string, { value: string; bytes: number }>({ maxSize: maxBytes, sizeCalculation: (entry) => entry.bytes });
  return {
    get: (key: string) => lru.get(key)?.value,
    set: (key: string, value: string, bytes: number) => lru.set(key, { value, bytes }),
    has: (key: string) => lru.has(key),
  };
}

describe('WeightedTinyLfuCache', () => {
  it('never holds more than its budget, and counts exactly the weights it holds', () => {
    const maxBytes = 200 * KB;
    const random = randomSource(1);
    const held = new Map<string, number>();
    const faults: string[] = [];
    let evictions = 0;
    const cache: WeightedTinyLfuCache<string, string> = new WeightedTinyLfuCache<string, string>({
      maxBytes,
      onEvict: (key) => {
        // Called once the cache is consistent again.
        if (cache.bytes > maxBytes || cache.has(key)) faults.push(`onEvict(${key}) while inconsistent`);
        held.delete(key);
        evictions++;
      },
    });
    // Hex digests and other strings (the sketch's other hash); a skewed choice of keys, so some come back often.
    const keys = Array.from({ length: 600 }, (_, i) => (i % 3 === 0 ? `client-${i}` : digest(`client-${i}`)));
    for (let step = 0; step < 20_000 && faults.length === 0; step++) {
      const key = keys[Math.floor(keys.length * random() ** 2)];
      const action = random();
      if (action < 0.6) {
        cache.get(key);
      } else if (action < 0.95) {
        const bytes = random() < 0.05 ? 20 * KB + Math.floor(random() * 50 * KB) : 300 + Math.floor(random() * 1700);
        const isHeld = cache.set(key, `value ${step}`, bytes);
        if (isHeld !== cache.has(key)) faults.push(`step ${step}: set returned ${isHeld}`);
        if (isHeld) held.set(key, bytes);
        else held.delete(key);
      } else if (cache.delete(key) !== held.delete(key)) {
        faults.push(`step ${step}: delete`);
      }
      let heldBytes = 0;
      for (const [heldKey, bytes] of held) {
        if (!cache.has(heldKey)) faults.push(`step ${step}: ${heldKey} lost without onEvict`);
        heldBytes += bytes;
      }
      if (cache.bytes > maxBytes) faults.push(`step ${step}: ${cache.bytes} bytes held`);
      if (cache.bytes !== heldBytes || cache.size !== held.size)
        faults.push(`step ${step}: ${cache.bytes} bytes counted, ${heldBytes} held`);
    }
    expect(faults).toEqual([]);
    expect(evictions).toBeGreaterThan(1000);
    expect(cache.bytes).toBeGreaterThan(maxBytes / 2);
  });

  it('replaces a value and its weight', () => {
    const evicted: string[] = [];
    const cache = new WeightedTinyLfuCache<string, string>({ maxBytes: 100 * KB, onEvict: (key) => evicted.push(key) });
    expect(cache.set(digest('a'), 'first', 1000)).toBe(true);
    expect(cache.set(digest('b'), 'other', 500)).toBe(true);
    expect(cache.set(digest('a'), 'second', 3000)).toBe(true);
    expect(cache.peek(digest('a'))).toBe('second');
    expect(cache.bytes).toBe(3500);
    expect(cache.set(digest('a'), 'third', 200)).toBe(true);
    expect(cache.get(digest('a'))).toBe('third');
    expect(cache.bytes).toBe(700);
    expect(cache.size).toBe(2);
    expect(evicted).toEqual([]);
  });

  it('refuses an entry heavier than its budget (or its main space), and drops the value it replaces', () => {
    const cache = new WeightedTinyLfuCache<string, string>({ maxBytes: 100 * KB });
    expect(cache.set(digest('huge'), 'x', 100 * KB + 1)).toBe(false);
    expect(cache.set(digest('almost'), 'x', 100 * KB)).toBe(false);
    expect(cache.has(digest('huge'))).toBe(false);
    expect(cache.bytes).toBe(0);

    expect(cache.set(digest('a'), 'small', 1000)).toBe(true);
    expect(cache.set(digest('a'), 'huge', 200 * KB)).toBe(false);
    expect(cache.peek(digest('a'))).toBeUndefined();
    expect(cache.bytes).toBe(0);
    expect(cache.size).toBe(0);
  });

  it('rejects weights and budgets that are not positive integers', () => {
    const cache = new WeightedTinyLfuCache<string, string>({ maxBytes: 100 * KB });
    for (const bytes of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => cache.set('a', 'x', bytes)).toThrow(RangeError);
    }
    expect(() => new WeightedTinyLfuCache({ maxBytes: 0 })).toThrow(RangeError);
    expect(cache.size).toBe(0);
  });

  it('deletes and clears, without calling onEvict', () => {
    const onEvict = jest.fn();
    const cache = new WeightedTinyLfuCache<string, string>({ maxBytes: 100 * KB, onEvict });
    for (const name of ['a', 'b', 'c']) cache.set(digest(name), name, 1000);
    expect(cache.delete(digest('b'))).toBe(true);
    expect(cache.delete(digest('b'))).toBe(false);
    expect(cache.has(digest('b'))).toBe(false);
    expect(cache.get(digest('b'))).toBeUndefined();
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBe(2000);

    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    expect(cache.peek(digest('a'))).toBeUndefined();
    expect(cache.set(digest('a'), 'again', 1000)).toBe(true);
    expect(cache.get(digest('a'))).toBe('again');
    expect(onEvict).not.toHaveBeenCalled();
  });

  it('keeps the busy keys through a scan of the tail several times its budget, where an LRU loses them', () => {
    const maxBytes = 256 * KB;
    const random = randomSource(2);
    const hot = Array.from({ length: 40 }, (_, i) => digest(`hot-${i}`));
    const tail = Array.from({ length: 5000 }, (_, i) => digest(`tail-${i}`));
    const scan = Array.from({ length: 2000 }, (_, i) => digest(`scanned-${i}`));
    const tinyLfu = new WeightedTinyLfuCache<string, string>({ maxBytes });
    const lru = lruOfBytes(maxBytes);
    for (const cache of [tinyLfu, lru]) {
      // Warm-up: the busy keys take half the requests, the tail the other half.
      for (let i = 0; i < 20_000; i++) {
        const pool = random() < 0.5 ? hot : tail;
        request(cache, pool[Math.floor(random() * pool.length)]);
      }
      expect(hot.every((key) => cache.has(key))).toBe(true);
      // 2000 one-time keys of 1 KB: 8 times the budget.
      for (const key of scan) request(cache, key);
    }
    expect(hot.filter((key) => !tinyLfu.has(key))).toEqual([]);
    expect(hot.filter((key) => lru.has(key))).toEqual([]);
    expect(tinyLfu.bytes).toBeLessThanOrEqual(maxBytes);
  });

  it('admits a key asked for often while not held, and keeps a one-time key out', () => {
    const maxBytes = 64 * KB;
    const bytes = 500; // The window (1% of the budget) holds one entry.
    const cache = new WeightedTinyLfuCache<string, string>({ maxBytes });
    const residents = Array.from({ length: 140 }, (_, i) => digest(`resident-${i}`));
    for (let round = 0; round < 3; round++) for (const key of residents) request(cache, key, bytes);
    const wanted = digest('wanted');
    const peeked = digest('peeked');
    const once = digest('once');
    for (let i = 0; i < 6; i++) {
      cache.get(wanted);
      // Neither peek nor has counts as a request.
      cache.peek(peeked);
      cache.has(peeked);
    }
    for (const key of [wanted, peeked, once]) request(cache, key, bytes);
    // One-time keys push the three out of the window: each then competes with the residents for admission.
    for (let i = 0; i < 200; i++) request(cache, digest(`scanned-${i}`), bytes);
    expect(cache.has(wanted)).toBe(true);
    expect(cache.has(peeked)).toBe(false);
    expect(cache.has(once)).toBe(false);
    expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
  });

  it('holds a new key at first, in its window, even when every held key is more frequent', () => {
    const cache = new WeightedTinyLfuCache<string, string>({ maxBytes: 200 * KB });
    const residents = Array.from({ length: 200 }, (_, i) => digest(`resident-${i}`));
    for (let round = 0; round < 3; round++) for (const key of residents) request(cache, key);
    expect(cache.set(digest('new'), 'x', 1000)).toBe(true);
    expect(cache.get(digest('new'))).toBe('x');
  });

  it('counts as evicted an entry it refuses to admit', () => {
    const evicted: string[] = [];
    const cache = new WeightedTinyLfuCache<string, string>({ maxBytes: 100 * KB, onEvict: (key) => evicted.push(key) });
    const residents = Array.from({ length: 100 }, (_, i) => digest(`resident-${i}`));
    for (let round = 0; round < 3; round++) for (const key of residents) request(cache, key);
    evicted.length = 0;
    // Heavier than the window (1 KB), it competes for admission at once, and loses to the frequent residents.
    expect(cache.set(digest('big'), 'x', 10 * KB)).toBe(false);
    expect(evicted).toEqual([digest('big')]);
  });
});
