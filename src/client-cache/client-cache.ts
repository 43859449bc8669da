import { LRUCache } from 'lru-cache';
import type { InvalidationListener } from './cache-invalidation.bus';
import { clientCacheHits, clientCacheMisses } from './client-cache.metrics';
import { WeightedTinyLfuCache } from './weighted-cache';

/** Who a key belongs to, and on what terms: what every secretKey route checks before it does anything. */
export interface KeyOwner {
  clientId: number;
  isActive: boolean;
  /** The key is the client's previous one (after a rotation): it may not rotate, and it stops working at keyExpiresAt. */
  isPreviousKey: boolean;
  /** Wall-clock ms after which the key is unknown; null for a current key. */
  keyExpiresAt: number | null;
  /** The digests of all the client's keys (current, and previous if any): a change to the client invalidates each. */
  keyDigests: string[];
}

/** A known client as the hot path needs it: who owns the key, and the answer around the echoed key. */
export interface CachedClient extends KeyOwner {
  /** The serialized get-client answer is `prefix + secretKey + suffix`: the key itself is never cached. */
  prefix: string;
  suffix: string;
}

/** The get-client answer for the key presented. Only well-formed keys (base64url characters) get here: no escaping needed. */
export function answerOf(client: CachedClient, secretKey: string): string {
  return client.prefix + secretKey + client.suffix;
}

export type CacheLookup = { found: true; client: CachedClient } | { found: false } | undefined;

/** How a miss is filled: the key's client read from the database, as the cache keeps it (null: no client has the key). */
export type ClientRead = (digest: string) => Promise<CachedClient | null>;

/** A read under way: when it started (readToken) and what it will find. */
interface Load {
  token: number;
  client: Promise<CachedClient | null>;
}

export interface ClientCacheOptions {
  /** Bound on the bytes the cache holds (answers, owners and unknown keys, each weighed by entryBytes); 0 keeps nothing. */
  maxBytes: number;
  /** Age limit while invalidations from other instances are heard: bounds staleness should one ever be lost. */
  liveMaxAgeMs?: number;
  /**
   * Share of liveMaxAgeMs over which each entry's own limit is drawn (0.25: between 45 and 60 s), so that entries read
   * together (a fleet's first minute, after a restart or a reconnect) do not all expire, and all miss, together.
   */
  liveAgeSpread?: number;
  /** Draws in [0, 1) for the spread. */
  random?: () => number;
  /** Age limit while they cannot be heard (broker down, or not yet subscribed): under the promised 1 s, with room for the request itself. */
  degradedMaxAgeMs?: number;
  /** How long an unknown key is answered from memory. */
  unknownTtlMs?: number;
  now?: () => number;
  /** The clock key expiries are read on (they come from the database, so they are wall-clock times). */
  wallClock?: () => number;
}

/**
 * What the cache holds for one key: who owns it and, unless only the answer was dropped, the answer (then `owner` is
 * that CachedClient); or, with `owner` null, that no client has the key.
 */
interface Entry {
  owner: KeyOwner | CachedClient | null;
  hasAnswer: boolean;
  storedAt: number;
  /** When it stops being served while invalidations are heard: storedAt plus its share of liveMaxAgeMs. */
  liveUntil: number;
}

/** Keys whose last change is remembered; more changes in flight than this only make reads older than the oldest one wait. */
const CHANGE_RECORDS = 10_000;

/**
 * What one entry takes beyond the text of its answer: the digest it is filed under, the entry and owner objects, the
 * digests of the client's keys, and the policy's node and map slot: 555 bytes measured for answers of one or two SMS
 * configurations (`npm run bench:cache-memory`: 1,200 bytes of heap per entry for 1,245 of weight).
 */
export const ENTRY_OVERHEAD_BYTES = 600;

/** The memory an entry takes, as its weight against maxBytes: V8 keeps Latin-1 text at one byte a character, other text at two. */
export function entryBytes(entry: { owner: KeyOwner | CachedClient | null; hasAnswer: boolean }): number {
  if (!entry.hasAnswer) return ENTRY_OVERHEAD_BYTES;
  const { prefix, suffix } = entry.owner as CachedClient;
  return ENTRY_OVERHEAD_BYTES + textBytes(prefix) + textBytes(suffix);
}

function textBytes(text: string): number {
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u00ff]/.test(text) ? 2 * text.length : text.length;
}

/**
 * The hot path's cache, keyed by the SHA-256 digest of the secret key, bounded in bytes with a frequency-aware policy
 * (W-TinyLFU: a key read once, as in a scan of the fleet's tail, does not push out the busy ones).
 * Entries are served at most `liveMaxAgeMs` old (each its own limit, in the last quarter) while the instance hears other
 * instances' invalidations,
 * and at most `degradedMaxAgeMs` old otherwise. It fills itself (getOrLoad, load): the caller says only how to read a
 * key; concurrent misses of one key share one read, and a read that started before an invalidation is never stored,
 * so a slow query cannot put back what a write just removed.
 */
export class ClientCache implements InvalidationListener {
  /**
   * One entry per key: its answer and who owns it, for the guards of the secretKey routes, under the same age limits.
   * A change of a client's answer alone (a configuration added) keeps who owns the key; a change of who may use the
   * key (disabled, deleted, rotated) drops both (drop()).
   */
  private readonly entries: WeightedTinyLfuCache<string, Entry>;
  private readonly maxBytesGiven: number;
  private readonly liveMaxAgeMs: number;
  private readonly liveAgeSpread: number;
  private readonly random: () => number;
  private readonly degradedMaxAgeMs: number;
  private readonly unknownTtlMs: number;
  private readonly now: () => number;
  private readonly wallClock: () => number;
  private live = false;
  /** Counts the invalidations; a read notes it when it starts (readToken) and is stored only if nothing it read changed since. */
  private generation = 0;
  /**
   * When each recently changed key last changed: its answer (any write to its client) or who may use it. So a read of
   * one key is refused only for a change to that key, not for every write elsewhere, which under a steady stream of
   * writes would keep every key from being cached.
   */
  private readonly answerChangedAt: LRUCache<string, number>;
  private readonly keyChangedAt: LRUCache<string, number>;
  /** Reads started before this are never stored: everything was cleared, or a change record was evicted. */
  private floor = 0;
  /** The database reads under way, by key digest. */
  private readonly loading = new Map<string, Load>();

  constructor(options: ClientCacheOptions) {
    this.maxBytesGiven = options.maxBytes;
    this.now = options.now ?? (() => performance.now());
    this.wallClock = options.wallClock ?? Date.now;
    this.liveMaxAgeMs = options.liveMaxAgeMs ?? 60_000;
    this.liveAgeSpread = options.liveAgeSpread ?? 0.25;
    this.random = options.random ?? Math.random;
    this.degradedMaxAgeMs = options.degradedMaxAgeMs ?? 800;
    this.unknownTtlMs = options.unknownTtlMs ?? 1000;
    // A budget of 0 holds nothing: no entry weighs a single byte.
    this.entries = new WeightedTinyLfuCache<string, Entry>({ maxBytes: Math.max(1, options.maxBytes) });
    const changeRecords = () =>
      new LRUCache<string, number>({
        max: CHANGE_RECORDS,
        dispose: (changedAt, _digest, reason) => {
          if (reason === 'evict') this.floor = Math.max(this.floor, changedAt);
        },
      });
    this.answerChangedAt = changeRecords();
    this.keyChangedAt = changeRecords();
  }

  /** undefined: not cached (ask the database); found false: a key known to belong to no client. */
  lookup(digest: string): CacheLookup {
    const entry = this.entries.get(digest);
    if (entry === undefined) return undefined;
    if (entry.owner === null) {
      if (this.now() - entry.storedAt <= this.unknownTtlMs) return { found: false };
      this.entries.delete(digest);
      return undefined;
    }
    if (!entry.hasAnswer || !this.isFresh(digest, entry)) return undefined;
    return { found: true, client: entry.owner as CachedClient };
  }

  /** What is known of this key (null: no client has it): from memory, else as load() finds it. */
  async getOrLoad(digest: string, read: ClientRead): Promise<CachedClient | null> {
    const cached = this.lookup(digest);
    if (cached !== undefined) {
      clientCacheHits.inc({ kind: cached.found ? 'found' : 'unknown' });
      return cached.found ? cached.client : null;
    }
    return this.load(digest, read);
  }

  /**
   * A key lookup() did not find, counted as a miss and read through `read`, whose finding is stored. One read per key at
   * a time: the requests that miss while it runs share its answer, so a busy key whose entry was just invalidated costs
   * the database one read, not one per caller. A request never joins a read that started before the key last changed:
   * it could predate a write already answered.
   */
  load(digest: string, read: ClientRead): Promise<CachedClient | null> {
    clientCacheMisses.inc();
    const underWay = this.loading.get(digest);
    if (underWay !== undefined && this.unchangedSince(digest, underWay.token)) return underWay.client;
    const token = this.readToken();
    const load: Load = { token, client: this.fill(digest, read, token) };
    this.loading.set(digest, load);
    const settled = () => {
      if (this.loading.get(digest) === load) this.loading.delete(digest);
    };
    load.client.then(settled, settled);
    return load.client;
  }

  private async fill(digest: string, read: ClientRead, token: number): Promise<CachedClient | null> {
    const client = await read(digest);
    this.store(digest, client, token);
    return client;
  }

  /** Who owns this digest, when known: stored with every answer, and kept while only the answer changes. */
  lookupOwner(digest: string): KeyOwner | undefined {
    const entry = this.entries.get(digest);
    if (entry === undefined || entry.owner === null || !this.isFresh(digest, entry)) return undefined;
    return entry.owner;
  }

  /** Whether an entry is young enough to serve, for a key that has not expired; anything else is deleted. */
  private isFresh(digest: string, entry: Entry): boolean {
    const now = this.now();
    const young = this.live ? now <= entry.liveUntil : now - entry.storedAt <= this.degradedMaxAgeMs;
    const expiresAt = entry.owner!.keyExpiresAt;
    if (young && (expiresAt === null || this.wallClock() < expiresAt)) return true;
    this.entries.delete(digest);
    return false;
  }

  /** Taken as a read starts (load() does); store() only keeps what was read after the last invalidation. */
  readToken(): number {
    return this.generation;
  }

  /** Keeps what a read that started at `token` found, unless the key changed since (then the read may predate the write). */
  store(digest: string, client: CachedClient | null, token: number): void {
    const answerCurrent = this.unchangedSince(digest, token);
    const storedAt = this.now();
    const liveUntil = storedAt + this.liveMaxAgeMs * (1 - this.liveAgeSpread * this.random());
    if (client === null) {
      // The database no longer knows the key: whoever owned it must not go on opening the SMS routes until the
      // invalidation arrives (forgetting is always safe, whatever the read's age).
      if (answerCurrent) this.put(digest, { owner: null, hasAnswer: false, storedAt, liveUntil });
      else this.entries.delete(digest);
      return;
    }
    if (answerCurrent) return this.put(digest, { owner: client, hasAnswer: true, storedAt, liveUntil });
    // Who owns the key changes only with the key (drop()): a read that saw a write to the client's answer still says it,
    // unless a newer read already stored what it found.
    if (this.recordsNoChange(this.keyChangedAt, digest, token) && !this.entries.has(digest)) {
      this.put(digest, { owner: ownerOf(client), hasAnswer: false, storedAt, liveUntil });
    }
  }

  private put(digest: string, entry: Entry): void {
    // Refused by the policy (or larger than the budget): whatever was held for the key is older, so it goes too.
    if (!this.entries.set(digest, entry, entryBytes(entry))) this.entries.delete(digest);
  }

  /** Whether nothing about this key changed since `token` was taken: a read started then is still current. */
  private unchangedSince(digest: string, token: number): boolean {
    return this.recordsNoChange(this.answerChangedAt, digest, token);
  }

  private recordsNoChange(changes: LRUCache<string, number>, digest: string, token: number): boolean {
    return token >= this.floor && token >= (changes.peek(digest) ?? 0);
  }

  /** Forgets this key's answer in this instance; who owns the key is kept (ClientCacheInvalidator tells the others). */
  dropAnswer(digest: string): void {
    this.answerChangedAt.set(digest, ++this.generation);
    const entry = this.entries.peek(digest);
    if (entry === undefined || !entry.hasAnswer) {
      if (entry?.owner === null) this.entries.delete(digest);
      return;
    }
    this.put(digest, { ...entry, owner: ownerOf(entry.owner as CachedClient), hasAnswer: false });
  }

  /** Forgets everything about this key in this instance: its answer and who owns it. */
  drop(digest: string): void {
    this.answerChangedAt.set(digest, ++this.generation);
    this.keyChangedAt.set(digest, this.generation);
    this.entries.delete(digest);
  }

  clear(): void {
    this.floor = ++this.generation;
    this.entries.clear();
  }

  /**
   * Whether invalidations from other instances are being heard. Going live clears everything, since
   * invalidations sent while this instance was not listening are lost.
   */
  setLive(live: boolean): void {
    if (live && !this.live) this.clear();
    this.live = live;
  }

  get isLive(): boolean {
    return this.live;
  }

  /** Keys held: answers, owners whose answer was dropped, and unknown keys. */
  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.entries.bytes;
  }

  get maxBytes(): number {
    return this.maxBytesGiven;
  }
}

function ownerOf({ clientId, isActive, isPreviousKey, keyExpiresAt, keyDigests }: KeyOwner): KeyOwner {
  return { clientId, isActive, isPreviousKey, keyExpiresAt, keyDigests };
}
