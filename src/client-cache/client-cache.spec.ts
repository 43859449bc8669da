import { CachedClient, ClientCache, ClientCacheOptions } from './client-cache';

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
});
