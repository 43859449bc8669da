import { register } from 'prom-client';
import { CachedClient, ClientCache, ClientCacheOptions, ClientRead, ENTRY_OVERHEAD_BYTES, entryBytes } from './client-cache';
import { clientCacheHits, clientCacheMisses } from './client-cache.metrics';

const client = (id: number, key: Partial<CachedClient> = {}): CachedClient => ({
  clientId: id,
  isActive: true,
  isPreviousKey: false,
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

  it('should answer undefined for a digest it never saw', () => {
    expect(cacheWith().lookup('a')).toBeUndefined();
  });

  it('should answer a stored client under its own digest only', () => {
    const cache = cacheWith();
    cache.setLive(true);
    cache.store('a', client(1), cache.readToken());
    cache.store('b', client(2), cache.readToken());
    expect(cache.lookup('a')).toEqual({ found: true, client: client(1) });
    expect(cache.lookup('b')).toEqual({ found: true, client: client(2) });
    expect(cache.lookup('c')).toBeUndefined();
  });

  it('should remember an unknown key for its short time only', () => {
    const cache = cacheWith({ unknownTtlMs: 1000 });
    cache.store('x', null, cache.readToken());
    expect(cache.lookup('x')).toEqual({ found: false });
    now += 1001;
    expect(cache.lookup('x')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('should serve entries less than 1 s old while not live (broker down or not yet subscribed)', () => {
    const cache = cacheWith();
    expect(cache.isLive).toBe(false);
    cache.store('a', client(1), cache.readToken());
    now += 800;
    expect(cache.lookup('a')?.found).toBe(true);
    now += 1;
    expect(cache.lookup('a')).toBeUndefined();
  });

  it('should serve entries up to the live age limit while live', () => {
    const cache = cacheWith({ liveMaxAgeMs: 60_000 });
    cache.setLive(true);
    cache.store('a', client(1), cache.readToken());
    now += 60_000;
    expect(cache.lookup('a')?.found).toBe(true);
    now += 1;
    expect(cache.lookup('a')).toBeUndefined();
  });

  it('should give each entry its own live age limit in the last quarter of it, so entries read together expire apart', () => {
    let draw = 0;
    const draws = [0, 0.5, 0.999];
    const cache = cacheWith({ liveMaxAgeMs: 60_000, random: () => draws[draw++] });
    cache.setLive(true);
    for (const digest of ['a', 'b', 'c']) cache.store(digest, client(1), cache.readToken());
    now += 45_000;
    expect(['a', 'b', 'c'].map((digest) => cache.lookup(digest)?.found)).toEqual([true, true, true]);
    now += 7_500;
    expect(['a', 'b', 'c'].map((digest) => cache.lookup(digest)?.found)).toEqual([true, true, undefined]);
    now += 7_500;
    expect(['a', 'b'].map((digest) => cache.lookup(digest)?.found)).toEqual([true, undefined]);
    now += 1;
    expect(cache.lookup('a')).toBeUndefined();
  });

  it('should stop serving entries older than 1 s as soon as it is no longer live', () => {
    const cache = cacheWith();
    cache.setLive(true);
    cache.store('old', client(1), cache.readToken());
    now += 5000;
    cache.store('fresh', client(2), cache.readToken());
    now += 500;
    cache.setLive(false);
    expect(cache.lookup('old')).toBeUndefined();
    expect(cache.lookup('fresh')?.found).toBe(true);
  });

  it('should clear everything when it becomes live again, since invalidations may have been missed', () => {
    const cache = cacheWith();
    cache.store('a', client(1), cache.readToken());
    cache.store('x', null, cache.readToken());
    cache.setLive(true);
    expect(cache.size).toBe(0);
    expect(cache.lookup('a')).toBeUndefined();
    expect(cache.lookup('x')).toBeUndefined();
  });

  it('should not clear when told it is live while it already was', () => {
    const cache = cacheWith();
    cache.setLive(true);
    cache.store('a', client(1), cache.readToken());
    cache.setLive(true);
    expect(cache.size).toBe(1);
  });

  it('should forget a dropped client and a dropped unknown key', () => {
    const cache = cacheWith();
    cache.setLive(true);
    cache.store('a', client(1), cache.readToken());
    cache.store('x', null, cache.readToken());
    cache.drop('a');
    cache.drop('x');
    expect(cache.lookup('a')).toBeUndefined();
    expect(cache.lookup('x')).toBeUndefined();
  });

  it('should still know who owns a key after only its answer was dropped, and nothing once the key is dropped', () => {
    const cache = cacheWith();
    cache.setLive(true);
    cache.store('a', client(7), cache.readToken());
    cache.dropAnswer('a');
    expect(cache.lookup('a')).toBeUndefined();
    expect(cache.lookupOwner('a')?.clientId).toBe(7);
    cache.drop('a');
    expect(cache.lookupOwner('a')).toBeUndefined();
  });

  it('should forget who owned a key as soon as a read finds it unknown, before any invalidation arrives', () => {
    const cache = cacheWith();
    cache.setLive(true);
    cache.store('a', client(7), cache.readToken());
    cache.dropAnswer('a');
    expect(cache.lookupOwner('a')?.clientId).toBe(7);
    cache.store('a', null, cache.readToken());
    expect(cache.lookupOwner('a')).toBeUndefined();
    expect(cache.lookup('a')).toEqual({ found: false });
  });

  it('should forget who owns a key once it is older than the age limit, like the answers', () => {
    const cache = cacheWith();
    cache.store('a', client(7), cache.readToken());
    cache.dropAnswer('a');
    now += 800;
    expect(cache.lookupOwner('a')?.clientId).toBe(7);
    now += 1;
    expect(cache.lookupOwner('a')).toBeUndefined();
  });

  it('should stop answering for a previous key at its expiry, whatever the age of the entry', () => {
    let wallClock = 5_000_000;
    const cache = cacheWith({ wallClock: () => wallClock });
    cache.setLive(true);
    cache.store('old', client(7, { isPreviousKey: true, keyExpiresAt: 5_000_500 }), cache.readToken());
    wallClock += 499;
    expect(cache.lookup('old')?.found).toBe(true);
    expect(cache.lookupOwner('old')?.isPreviousKey).toBe(true);
    wallClock += 1;
    expect(cache.lookup('old')).toBeUndefined();
    expect(cache.lookupOwner('old')).toBeUndefined();
  });

  it('should forget who owns every key when it starts hearing invalidations (some may have been missed)', () => {
    const cache = cacheWith();
    cache.store('a', client(7), cache.readToken());
    cache.setLive(true);
    expect(cache.lookupOwner('a')).toBeUndefined();
  });

  it('should not store what was read before an invalidation (the read may predate the write)', () => {
    const cache = cacheWith();
    cache.setLive(true);
    const token = cache.readToken();
    cache.drop('a');
    cache.store('a', client(1), token);
    expect(cache.lookup('a')).toBeUndefined();
    cache.store('a', client(1), cache.readToken());
    expect(cache.lookup('a')?.found).toBe(true);
  });

  it('should store what was read while other keys changed, and the owner while only the answer changed', () => {
    const cache = cacheWith();
    cache.setLive(true);
    const token = cache.readToken();
    cache.drop('other');
    cache.dropAnswer('a');
    cache.store('a', client(1), token);
    expect(cache.lookup('a')).toBeUndefined();
    expect(cache.lookupOwner('a')?.clientId).toBe(1);
    cache.store('b', client(2), token);
    expect(cache.lookup('b')?.found).toBe(true);
  });

  it('should not store who owns a key read before the key changed', () => {
    const cache = cacheWith();
    cache.setLive(true);
    const token = cache.readToken();
    cache.drop('a');
    cache.store('a', client(1), token);
    expect(cache.lookupOwner('a')).toBeUndefined();
  });

  it('should refuse every read older than a change record it had to forget', () => {
    const cache = cacheWith();
    cache.setLive(true);
    const token = cache.readToken();
    cache.dropAnswer('a');
    // More keys change while the read is in flight than the cache remembers changes for: a's record is evicted.
    for (let i = 0; i < 10_000; i++) cache.dropAnswer(`k${i}`);
    cache.store('a', client(1), token);
    expect(cache.lookup('a')).toBeUndefined();
    cache.store('a', client(1), cache.readToken());
    expect(cache.lookup('a')?.found).toBe(true);
  });

  it('should not store what was read before a clear', () => {
    const cache = cacheWith();
    const token = cache.readToken();
    cache.clear();
    cache.store('a', client(1), token);
    expect(cache.size).toBe(0);
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

describe('ClientCache filling itself', () => {
  let cache: ClientCache;
  let read: jest.Mock<ReturnType<ClientRead>, Parameters<ClientRead>>;

  beforeEach(() => {
    cache = new ClientCache({ maxBytes: 1_000_000 });
    cache.setLive(true);
    read = jest.fn<ReturnType<ClientRead>, Parameters<ClientRead>>().mockResolvedValue(client(9));
  });

  /** A database read that answers when the test says so. */
  const deferredRead = () => {
    let answer!: (found: CachedClient | null) => void;
    read.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    return (found: CachedClient | null) => answer(found);
  };

  const count = async (metric: typeof clientCacheHits, kind?: string): Promise<number> =>
    (await metric.get()).values.find((value) => kind === undefined || value.labels.kind === kind)?.value ?? 0;

  it('should read a key it does not hold, keep what it found, known or not, and answer it from memory after', async () => {
    await expect(cache.getOrLoad('a', read)).resolves.toEqual(client(9));
    await expect(cache.getOrLoad('a', read)).resolves.toEqual(client(9));
    read.mockResolvedValue(null);
    await expect(cache.getOrLoad('x', read)).resolves.toBeNull();
    await expect(cache.getOrLoad('x', read)).resolves.toBeNull();
    expect(read.mock.calls).toEqual([['a'], ['x']]);
    expect(cache.lookup('a')).toEqual({ found: true, client: client(9) });
  });

  it('should count a miss for each read, and each hit by what it found', async () => {
    const [misses, found, unknown] = [
      await count(clientCacheMisses),
      await count(clientCacheHits, 'found'),
      await count(clientCacheHits, 'unknown'),
    ];
    await cache.getOrLoad('a', read);
    await cache.getOrLoad('a', read);
    read.mockResolvedValue(null);
    await cache.load('x', read);
    await cache.getOrLoad('x', read);
    expect(await count(clientCacheMisses)).toBe(misses + 2);
    expect(await count(clientCacheHits, 'found')).toBe(found + 1);
    expect(await count(clientCacheHits, 'unknown')).toBe(unknown + 1);
  });

  it('should read once for concurrent misses of one key', async () => {
    const answer = deferredRead();
    const found = Promise.all([cache.load('a', read), cache.load('a', read), cache.getOrLoad('a', read)]);
    answer(client(9));
    expect(await found).toEqual([client(9), client(9), client(9)]);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('should not let a miss join a read that started before the key changed, nor store that read', async () => {
    const answerEarly = deferredRead();
    const early = cache.load('a', read);
    cache.dropAnswer('a'); // a configuration was added meanwhile
    const late = cache.load('a', read);
    expect(read).toHaveBeenCalledTimes(2);
    await expect(late).resolves.toEqual(client(9));
    answerEarly(client(9, { prefix: 'stale' }));
    await expect(early).resolves.toEqual(client(9, { prefix: 'stale' }));
    expect(cache.lookup('a')).toEqual({ found: true, client: client(9) });
  });

  it('should read again after a failed read', async () => {
    read.mockRejectedValueOnce(new Error('gone'));
    await expect(cache.load('a', read)).rejects.toThrow('gone');
    await expect(cache.load('a', read)).resolves.toEqual(client(9));
    expect(read).toHaveBeenCalledTimes(2);
  });
});

describe('client cache metrics', () => {
  it('should register client_cache_hits_total and client_cache_misses_total on the default registry', async () => {
    expect(register.getSingleMetric('client_cache_hits_total')).toBe(clientCacheHits);
    expect(register.getSingleMetric('client_cache_misses_total')).toBe(clientCacheMisses);
    const before = (await register.getSingleMetricAsString('client_cache_misses_total')).match(/client_cache_misses_total (\d+)/)?.[1];
    clientCacheMisses.inc();
    clientCacheHits.inc({ kind: 'found' });
    const misses = await register.getSingleMetricAsString('client_cache_misses_total');
    expect(misses).toContain(`client_cache_misses_total ${Number(before) + 1}`);
    expect(await register.getSingleMetricAsString('client_cache_hits_total')).toMatch(/client_cache_hits_total\{kind="found"\} \d+/);
  });
});
