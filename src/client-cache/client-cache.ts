import { LRUCache } from 'lru-cache';
import type { ScopedKeyGrant } from '../auth/client-lookup';
import type { InvalidationListener } from './cache-invalidation.bus';
import { clientCacheHits, clientCacheMisses } from './client-cache.metrics';
import { WeightedTinyLfuCache } from './weighted-cache';

export interface KeyOwner {
  clientId: number;
  isActive: boolean;
  // A previous key may not rotate; it and a scoped key stop working at keyExpiresAt (wall-clock ms).
  isPreviousKey: boolean;
  keyExpiresAt: number | null;
  scopedKey: ScopedKeyGrant | null;
  keyDigests: string[];
}

export interface CachedClient extends KeyOwner {
  // The answer is prefix + secretKey + suffix: the key itself is never cached.
  prefix: string;
  suffix: string;
}

// Only well-formed keys (base64url characters) get here: no escaping needed.
export function answerOf(client: CachedClient, secretKey: string): string {
  return client.prefix + secretKey + client.suffix;
}

export type CacheLookup = { found: true; client: CachedClient } | { found: false } | undefined;

export type ClientRead = (digest: string) => Promise<CachedClient | null>;

interface Load {
  token: number;
  client: Promise<CachedClient | null>;
}

export interface ClientCacheOptions {
  maxBytes: number;
  liveMaxAgeMs?: number;
  liveAgeSpread?: number;
  random?: () => number;
  // Under the promised 1 s, with room for the request itself.
  degradedMaxAgeMs?: number;
  unknownTtlMs?: number;
  now?: () => number;
  wallClock?: () => number;
}

interface Entry {
  owner: KeyOwner | CachedClient | null;
  hasAnswer: boolean;
  storedAt: number;
  liveUntil: number;
}

// More changes in flight than this only make reads older than the oldest one wait.
const CHANGE_RECORDS = 10_000;

// 555 bytes measured for responses with one or two configurations (npm run bench:cache-memory), rounded up.
export const ENTRY_OVERHEAD_BYTES = 600;

// V8 keeps Latin-1 text at one byte a character, other text at two.
export function entryBytes(entry: { owner: KeyOwner | CachedClient | null; hasAnswer: boolean }): number {
  if (!entry.hasAnswer) return ENTRY_OVERHEAD_BYTES;
  const { prefix, suffix } = entry.owner as CachedClient;
  return ENTRY_OVERHEAD_BYTES + textBytes(prefix) + textBytes(suffix);
}

function textBytes(text: string): number {
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u00ff]/.test(text) ? 2 * text.length : text.length;
}

export class ClientCache implements InvalidationListener {
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
  private generation = 0;
  private readonly answerChangedAt: LRUCache<string, number>;
  private readonly keyChangedAt: LRUCache<string, number>;
  // Reads started before this are never stored: everything was cleared, or a change record was evicted.
  private floor = 0;
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

  // undefined: not cached; found false: a key known to belong to no client.
  lookup(digest: string): CacheLookup {
    const entry = this.answerEntry(digest);
    if (entry === undefined) return undefined;
    return entry.owner === null ? { found: false } : { found: true, client: entry.owner as CachedClient };
  }

  // The edge's hit, counted here: an enabled client. null: a key Nest's route refuses (unknown, or its client disabled).
  lookupEnabled(digest: string): CachedClient | null | undefined {
    const entry = this.answerEntry(digest);
    if (entry === undefined) return undefined;
    const client = entry.owner as CachedClient | null;
    if (client === null || !client.isActive) return null;
    clientCacheHits.inc({ kind: 'found' });
    return client;
  }

  // A fresh entry holding an answer, or a key known to belong to no client (owner null).
  private answerEntry(digest: string): Entry | undefined {
    const entry = this.entries.get(digest);
    if (entry === undefined) return undefined;
    if (entry.owner === null) {
      if (this.now() - entry.storedAt <= this.unknownTtlMs) return entry;
      this.entries.delete(digest);
      return undefined;
    }
    return entry.hasAnswer && this.isFresh(digest, entry) ? entry : undefined;
  }

  async getOrLoad(digest: string, read: ClientRead): Promise<CachedClient | null> {
    const cached = this.lookup(digest);
    if (cached !== undefined) {
      clientCacheHits.inc({ kind: cached.found ? 'found' : 'unknown' });
      return cached.found ? cached.client : null;
    }
    return this.load(digest, read);
  }

  // A request never joins a read that started before the key last changed: it could predate a write already answered.
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

  lookupOwner(digest: string): KeyOwner | undefined {
    const entry = this.entries.get(digest);
    if (entry === undefined || entry.owner === null || !this.isFresh(digest, entry)) return undefined;
    return entry.owner;
  }

  private isFresh(digest: string, entry: Entry): boolean {
    const now = this.now();
    const young = this.live ? now <= entry.liveUntil : now - entry.storedAt <= this.degradedMaxAgeMs;
    const expiresAt = entry.owner!.keyExpiresAt;
    if (young && (expiresAt === null || this.wallClock() < expiresAt)) return true;
    this.entries.delete(digest);
    return false;
  }

  readToken(): number {
    return this.generation;
  }

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

  private unchangedSince(digest: string, token: number): boolean {
    return this.recordsNoChange(this.answerChangedAt, digest, token);
  }

  private recordsNoChange(changes: LRUCache<string, number>, digest: string, token: number): boolean {
    return token >= this.floor && token >= (changes.peek(digest) ?? 0);
  }

  dropAnswer(digest: string): void {
    this.answerChangedAt.set(digest, ++this.generation);
    const entry = this.entries.peek(digest);
    if (entry === undefined || !entry.hasAnswer) {
      if (entry?.owner === null) this.entries.delete(digest);
      return;
    }
    this.put(digest, { ...entry, owner: ownerOf(entry.owner as CachedClient), hasAnswer: false });
  }

  drop(digest: string): void {
    this.answerChangedAt.set(digest, ++this.generation);
    this.keyChangedAt.set(digest, this.generation);
    this.entries.delete(digest);
  }

  clear(): void {
    this.floor = ++this.generation;
    this.entries.clear();
  }

  setLive(live: boolean): void {
    if (live && !this.live) this.clear();
    this.live = live;
  }

  get isLive(): boolean {
    return this.live;
  }

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

function ownerOf({ clientId, isActive, isPreviousKey, keyExpiresAt, scopedKey, keyDigests }: KeyOwner): KeyOwner {
  return { clientId, isActive, isPreviousKey, keyExpiresAt, scopedKey, keyDigests };
}
