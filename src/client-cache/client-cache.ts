import { LRUCache } from 'lru-cache';
import type { InvalidationListener } from './cache-invalidation.bus';

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

export interface ClientCacheOptions {
  /** Bound on the number of known clients kept (LRU). */
  maxEntries: number;
  /** Bound on the bytes of answers kept, whatever their size. */
  maxBytes?: number;
  /** Bound on the unknown keys remembered. */
  maxUnknown?: number;
  /** Age limit while invalidations from other instances are heard: bounds staleness should one ever be lost. */
  liveMaxAgeMs?: number;
  /** Age limit while they cannot be heard (broker down, or not yet subscribed): under the promised 1 s, with room for the request itself. */
  degradedMaxAgeMs?: number;
  /** How long an unknown key is answered from memory. */
  unknownTtlMs?: number;
  now?: () => number;
  /** The clock key expiries are read on (they come from the database, so they are wall-clock times). */
  wallClock?: () => number;
}

interface Entry<T> {
  value: T;
  storedAt: number;
}

/** Keys whose last change is remembered; more changes in flight than this only make reads older than the oldest one wait. */
const CHANGE_RECORDS = 10_000;

/** Per-entry overhead beyond the strings themselves, counted towards maxBytes. */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * The hot path's cache, keyed by the SHA-256 digest of the secret key. Bounded in entries and bytes (LRU).
 * Entries are served at most `liveMaxAgeMs` old while the instance hears other instances' invalidations,
 * and at most `degradedMaxAgeMs` old otherwise. A read that started before an invalidation is never stored,
 * so a slow query cannot put back what a write just removed.
 */
export class ClientCache implements InvalidationListener {
  private readonly known: LRUCache<string, Entry<CachedClient>>;
  private readonly unknown: LRUCache<string, number>;
  /**
   * Who owns a key, for the guards of the secretKey routes, under the same age limits as the answers. A change of a
   * client's answer alone (a configuration added) leaves it; a change of who may use the key (disabled, deleted,
   * rotated) drops it with the answer (drop()).
   */
  private readonly owners: LRUCache<string, Entry<KeyOwner>>;
  private readonly liveMaxAgeMs: number;
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

  constructor(options: ClientCacheOptions) {
    this.now = options.now ?? (() => performance.now());
    this.wallClock = options.wallClock ?? Date.now;
    this.liveMaxAgeMs = options.liveMaxAgeMs ?? 60_000;
    this.degradedMaxAgeMs = options.degradedMaxAgeMs ?? 800;
    this.unknownTtlMs = options.unknownTtlMs ?? 1000;
    this.known = new LRUCache<string, Entry<CachedClient>>({
      max: options.maxEntries,
      maxSize: options.maxBytes ?? 32 * 1024 * 1024,
      sizeCalculation: (entry) => 2 * (entry.value.prefix.length + entry.value.suffix.length) + ENTRY_OVERHEAD_BYTES,
    });
    this.unknown = new LRUCache<string, number>({ max: options.maxUnknown ?? options.maxEntries });
    this.owners = new LRUCache<string, Entry<KeyOwner>>({ max: options.maxEntries });
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
    const client = this.fresh(this.known, digest);
    if (client !== undefined) return { found: true, client };
    const unknownSince = this.unknown.get(digest);
    if (unknownSince !== undefined) {
      if (this.now() - unknownSince <= this.unknownTtlMs) return { found: false };
      this.unknown.delete(digest);
    }
    return undefined;
  }

  /** Who owns this digest, when known: stored with every answer, and kept while only the answer changes. */
  lookupOwner(digest: string): KeyOwner | undefined {
    return this.fresh(this.owners, digest);
  }

  /** An entry young enough to serve, for a key that has not expired; anything else is deleted. */
  private fresh<T extends KeyOwner>(map: LRUCache<string, Entry<T>>, digest: string): T | undefined {
    const entry = map.get(digest);
    if (entry === undefined) return undefined;
    const young = this.now() - entry.storedAt <= (this.live ? this.liveMaxAgeMs : this.degradedMaxAgeMs);
    const expired = entry.value.keyExpiresAt !== null && this.wallClock() >= entry.value.keyExpiresAt;
    if (young && !expired) return entry.value;
    map.delete(digest);
    return undefined;
  }

  /** Taken before reading the database; store() only keeps what was read after the last invalidation. */
  readToken(): number {
    return this.generation;
  }

  /** Keeps what a read that started at `token` found, unless the key changed since (then the read may predate the write). */
  store(digest: string, client: CachedClient | null, token: number): void {
    const answerCurrent = this.unchangedSince(this.answerChangedAt, digest, token);
    if (client === null) {
      // The database no longer knows the key: whoever owned it must not go on opening the SMS routes until the
      // invalidation arrives (forgetting is always safe, whatever the read's age).
      this.owners.delete(digest);
      if (answerCurrent) this.unknown.set(digest, this.now());
      return;
    }
    const storedAt = this.now();
    if (answerCurrent) this.known.set(digest, { value: client, storedAt });
    // Who owns the key changes only with the key (drop()): a read that saw a write to the client's answer still says it.
    if (!this.unchangedSince(this.keyChangedAt, digest, token)) return;
    const { clientId, isActive, isPreviousKey, keyExpiresAt, keyDigests } = client;
    this.owners.set(digest, { value: { clientId, isActive, isPreviousKey, keyExpiresAt, keyDigests }, storedAt });
  }

  private unchangedSince(changes: LRUCache<string, number>, digest: string, token: number): boolean {
    return token >= this.floor && token >= (changes.peek(digest) ?? 0);
  }

  /** Forgets this key's answer in this instance; who owns the key is kept (ClientCacheInvalidator tells the others). */
  dropAnswer(digest: string): void {
    this.answerChangedAt.set(digest, ++this.generation);
    this.known.delete(digest);
    this.unknown.delete(digest);
  }

  /** Forgets everything about this key in this instance: its answer and who owns it. */
  drop(digest: string): void {
    this.dropAnswer(digest);
    this.keyChangedAt.set(digest, this.generation);
    this.owners.delete(digest);
  }

  clear(): void {
    this.floor = ++this.generation;
    this.known.clear();
    this.unknown.clear();
    this.owners.clear();
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

  get size(): number {
    return this.known.size;
  }

  get unknownSize(): number {
    return this.unknown.size;
  }

  get maxEntries(): number {
    return this.known.max;
  }

  get bytes(): number {
    return this.known.calculatedSize;
  }
}
