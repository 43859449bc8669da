import { LRUCache } from 'lru-cache';
import type { InvalidationListener } from './cache-invalidation.bus';

/** A known client as the hot path needs it: its id (for the SMS guard) and its answer around the echoed key. */
export interface CachedClient {
  clientId: number;
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
}

interface Entry {
  client: CachedClient;
  storedAt: number;
}

/** Per-entry overhead beyond the strings themselves, counted towards maxBytes. */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * The hot path's cache, keyed by the SHA-256 digest of the secret key. Bounded in entries and bytes (LRU).
 * Entries are served at most `liveMaxAgeMs` old while the instance hears other instances' invalidations,
 * and at most `degradedMaxAgeMs` old otherwise. A read that started before an invalidation is never stored,
 * so a slow query cannot put back what a write just removed.
 */
export class ClientCache implements InvalidationListener {
  private readonly known: LRUCache<string, Entry>;
  private readonly unknown: LRUCache<string, number>;
  /**
   * Which client a key belongs to, for the SMS routes' guard. It never changes, so adding an SMS configuration
   * (which drops the client's answer) leaves it; a future write that deletes a client or changes its key must
   * drop it as well (clear()).
   */
  private readonly ids: LRUCache<string, number>;
  private readonly liveMaxAgeMs: number;
  private readonly degradedMaxAgeMs: number;
  private readonly unknownTtlMs: number;
  private readonly now: () => number;
  private live = false;
  private generation = 0;

  constructor(options: ClientCacheOptions) {
    this.now = options.now ?? (() => performance.now());
    this.liveMaxAgeMs = options.liveMaxAgeMs ?? 60_000;
    this.degradedMaxAgeMs = options.degradedMaxAgeMs ?? 800;
    this.unknownTtlMs = options.unknownTtlMs ?? 1000;
    this.known = new LRUCache<string, Entry>({
      max: options.maxEntries,
      maxSize: options.maxBytes ?? 32 * 1024 * 1024,
      sizeCalculation: (entry) => 2 * (entry.client.prefix.length + entry.client.suffix.length) + ENTRY_OVERHEAD_BYTES,
    });
    this.unknown = new LRUCache<string, number>({ max: options.maxUnknown ?? options.maxEntries });
    this.ids = new LRUCache<string, number>({ max: options.maxEntries });
  }

  /** undefined: not cached (ask the database); found false: a key known to belong to no client. */
  lookup(digest: string): CacheLookup {
    const now = this.now();
    const entry = this.known.get(digest);
    if (entry !== undefined) {
      if (now - entry.storedAt <= (this.live ? this.liveMaxAgeMs : this.degradedMaxAgeMs)) return { found: true, client: entry.client };
      this.known.delete(digest);
    }
    const unknownSince = this.unknown.get(digest);
    if (unknownSince !== undefined) {
      if (now - unknownSince <= this.unknownTtlMs) return { found: false };
      this.unknown.delete(digest);
    }
    return undefined;
  }

  /** The id of the client owning this digest, when known. */
  lookupId(digest: string): number | undefined {
    return this.ids.get(digest);
  }

  /** Taken before reading the database; store() only keeps what was read after the last invalidation. */
  readToken(): number {
    return this.generation;
  }

  store(digest: string, client: CachedClient | null, token: number): void {
    if (client !== null) this.ids.set(digest, client.clientId);
    if (token !== this.generation) return;
    if (client === null) this.unknown.set(digest, this.now());
    else this.known.set(digest, { client, storedAt: this.now() });
  }

  /** Forgets this key's answer in this instance (ClientCacheInvalidator tells the others). */
  drop(digest: string): void {
    this.generation++;
    this.known.delete(digest);
    this.unknown.delete(digest);
  }

  clear(): void {
    this.generation++;
    this.known.clear();
    this.unknown.clear();
    this.ids.clear();
  }

  /**
   * Whether invalidations from other instances are being heard. Going live clears everything, since
   * invalidations sent while this instance was not listening are lost.
   */
  setLive(live: boolean): void {
    if (live && !this.live) this.clearAnswers();
    this.live = live;
  }

  /** What invalidations may have changed; ids are not among it. */
  private clearAnswers(): void {
    this.generation++;
    this.known.clear();
    this.unknown.clear();
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
