import { CachedClient, ClientCache, ClientCacheOptions, ENTRY_OVERHEAD_BYTES, entryBytes } from './client-cache';

const client = (id: number, key: Partial<CachedClient> = {}): CachedClient => ({
  clientId: id,
  isActive: true,
  isPreviousKey: false,
  scopedKey: null,
  keyExpiresAt: null,
  keyDigests: [`digest-${id}`],
  prefix: `{"id":${id},"secretKey":"`,
  suffix: '"}',
  ...key,
});

describe('ClientCache', () => {
  let now: number;
  const cacheWith = (options: Partial<ClientCacheOptions> = {}): ClientCache =>
    new ClientCache({ maxBytes: 1_000_000, now: () => now, random: () => 0, ...options });

  beforeEach(() => {
    now = 1_000_000;
  });

  it('should weigh an entry by the memory its answer takes, two bytes a character beyond Latin-1', () => {
    const latin = client(1, { prefix: 'é'.repeat(100), suffix: 'x'.repeat(50) });
    expect(entryBytes({ owner: latin, hasAnswer: true })).toBe(ENTRY_OVERHEAD_BYTES + 150);
    const wide = client(1, { prefix: '€'.repeat(100), suffix: 'x'.repeat(50) });
    expect(entryBytes({ owner: wide, hasAnswer: true })).toBe(ENTRY_OVERHEAD_BYTES + 200 + 50);
    expect(entryBytes({ owner: null, hasAnswer: false })).toBe(ENTRY_OVERHEAD_BYTES);
  });

  it('should never hold more than its byte budget, whatever the mix of large and small answers and unknown keys', () => {
    const maxBytes = 200_000;
    const cache = cacheWith({ maxBytes });
    cache.setLive(true);
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 5000; i++) {
      const size = random() < 0.1 ? 20_000 + Math.floor(random() * 40_000) : 300 + Math.floor(random() * 1500);
      const digest = `k${Math.floor(random() * 2000)}`;
      if (random() < 0.2) cache.store(digest, null, cache.readToken());
      else cache.store(digest, client(i, { prefix: 'p'.repeat(size) }), cache.readToken());
      if (random() < 0.05) cache.dropAnswer(digest);
      expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(cache.bytes).toBeGreaterThan(maxBytes * 0.8);
  });

  it('should hold nothing with a budget of 0', () => {
    const cache = cacheWith({ maxBytes: 0 });
    cache.setLive(true);
    cache.store('a', client(1), cache.readToken());
    cache.store('x', null, cache.readToken());
    expect(cache.lookup('a')).toBeUndefined();
    expect(cache.lookup('x')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('should keep the busy keys while the tail of the fleet is read once each, many times its budget', () => {
    const answer = (id: number) => client(id, { prefix: 'p'.repeat(1000) });
    const cache = cacheWith({ maxBytes: 200 * (ENTRY_OVERHEAD_BYTES + 1000) });
    cache.setLive(true);
    const busy = Array.from({ length: 50 }, (_, i) => `busy-${i}`);
    const read = (digest: string, id: number) => {
      if (cache.lookup(digest) === undefined) cache.store(digest, answer(id), cache.readToken());
    };
    for (let round = 0; round < 20; round++) busy.forEach((digest, i) => read(digest, i));
    for (let i = 0; i < 5000; i++) {
      read(`tail-${i}`, 1000 + i);
      // The busy keys keep being asked for, as a notification platform's big senders do.
      if (i % 10 === 0) read(busy[(i / 10) % busy.length], (i / 10) % busy.length);
    }
    expect(busy.filter((digest) => cache.lookup(digest) === undefined)).toEqual([]);
  });

  it('should forget what it held for a key when a newer read of it is refused by the policy', () => {
    const cache = cacheWith({ maxBytes: 10_000 });
    cache.setLive(true);
    cache.store('a', client(1), cache.readToken());
    cache.dropAnswer('a');
    cache.store('a', client(1, { prefix: 'x'.repeat(20_000) }), cache.readToken());
    expect(cache.lookupOwner('a')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});
