import { register } from 'prom-client';
import { CachedClient, ClientCache, ClientCacheOptions, ClientRead } from './client-cache';
import { clientCacheHits, clientCacheMisses } from './client-cache.metrics';

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

  it("should count the edge's lookup as a hit only for an enabled client, whose refusals Nest's route looks up again", async () => {
    await cache.getOrLoad('a', read);
    read.mockResolvedValue(client(8, { isActive: false }));
    await cache.getOrLoad('off', read);
    read.mockResolvedValue(null);
    await cache.getOrLoad('x', read);
    const [found, unknown] = [await count(clientCacheHits, 'found'), await count(clientCacheHits, 'unknown')];
    expect(cache.lookupEnabled('a')).toEqual(client(9));
    expect(cache.lookupEnabled('off')).toBeNull();
    expect(cache.lookupEnabled('x')).toBeNull();
    expect(cache.lookupEnabled('never-read')).toBeUndefined();
    expect(await count(clientCacheHits, 'found')).toBe(found + 1);
    expect(await count(clientCacheHits, 'unknown')).toBe(unknown);
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
