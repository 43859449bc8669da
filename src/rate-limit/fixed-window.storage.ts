import { ThrottlerStorage } from '@nestjs/throttler';

export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Window {
  hits: number;
  endsAt: number;
  blockedUntil: number;
  /** Which of the key's places in the queue is its current one: the others are stale. */
  place: number;
}

/** A window's place in the order windows stop mattering: stale once the window was placed again, or forgotten. */
interface Place {
  key: string;
  window: Window;
  place: number;
}

/** Windows a storage keeps at most: about 200 B each, so the default bounds one storage to about 20 MB. */
export const DEFAULT_MAX_WINDOWS = 100_000;

/** Finished windows looked at per hit: more than one, so the sweep outpaces the keys one hit can add. */
const SWEEP_PER_HIT = 2;

/** The queue drops the places already passed once they are this many and more than half of it. */
const COMPACT_AFTER = 1024;

/**
 * Fixed-window counters: O(1) per hit, in a bounded map. The throttler's default storage keeps one expiry per hit and
 * filters the list on every request, which at a million hits a minute for one key costs more than the request itself.
 *
 * A queue keeps the windows in the order they stop mattering (a window is placed at its end again whenever its end
 * moves), so each hit forgets the finished windows at its front, a couple at a time, and a full map gives up the window
 * that would have been forgotten first. A storage counts windows of one length, which is what keeps that order true.
 * The order is not the map's own: a Map whose entries are deleted at the front and added at the end keeps the deleted
 * slots until it grows, and finding its first entry walks over all of them (12 µs a request with 100,000 keys).
 */
export class FixedWindowThrottlerStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, Window>();
  private queue: Place[] = [];
  /** The front of the queue: the places before it are passed. */
  private head = 0;
  private places = 0;

  constructor(private readonly maxWindows = DEFAULT_MAX_WINDOWS) {}

  increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    return Promise.resolve(this.hit(FixedWindowThrottlerStorage.keyOf(throttlerName, key), ttl, limit, blockDuration));
  }

  /** Where increment() counts a throttler's key: hit() with this key counts in the same window. */
  static keyOf(throttlerName: string, key: string): string {
    return `${throttlerName}:${key}`;
  }

  /** Counts one hit for the key; the synchronous form, for callers that cannot wait. */
  hit(key: string, ttl: number, limit: number, blockDuration: number, now = Date.now()): ThrottlerStorageRecord {
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || (window.endsAt <= now && window.blockedUntil <= now)) {
      window = { hits: 0, endsAt: now + ttl, blockedUntil: 0, place: 0 };
      this.place(key, window);
    } else if (window.endsAt <= now) {
      window.hits = 0;
      window.endsAt = now + ttl;
      this.place(key, window);
    }
    window.hits++;
    if (window.blockedUntil <= now && window.hits > limit) {
      window.blockedUntil = now + blockDuration;
      this.place(key, window);
    }
    return recordOf(window, now);
  }

  /** Seconds until the key's block ends, 0 when it is not blocked; counts nothing. */
  blockedFor(key: string, now = Date.now()): number {
    const window = this.windows.get(key);
    return window && window.blockedUntil > now ? Math.max(1, seconds(window.blockedUntil - now)) : 0;
  }

  get size(): number {
    return this.windows.size;
  }

  /** Puts the window at the end of the queue (it now stops mattering last), making room when the map is full. */
  private place(key: string, window: Window): void {
    if (this.head >= COMPACT_AFTER && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (!this.windows.has(key) && this.windows.size >= this.maxWindows) this.windows.delete(this.front()!.key);
    this.windows.set(key, window);
    window.place = ++this.places;
    this.queue.push({ key, window, place: window.place });
  }

  /** Forgets up to a couple of finished windows at the front of the queue: the sweep costs every hit the same. */
  private sweep(now: number): void {
    for (let looked = 0; looked < SWEEP_PER_HIT; looked++) {
      const front = this.front();
      if (front === undefined || front.window.endsAt > now || front.window.blockedUntil > now) return;
      this.windows.delete(front.key);
      this.head++;
    }
  }

  /** The current place at the front of the queue, the stale ones before it dropped. */
  private front(): Place | undefined {
    while (this.head < this.queue.length) {
      const place = this.queue[this.head];
      if (this.windows.get(place.key) === place.window && place.window.place === place.place) return place;
      this.head++;
    }
    return undefined;
  }
}

function recordOf(window: Window, now: number): ThrottlerStorageRecord {
  const isBlocked = window.blockedUntil > now;
  return {
    totalHits: window.hits,
    timeToExpire: seconds(window.endsAt - now),
    isBlocked,
    timeToBlockExpire: isBlocked ? Math.max(1, seconds(window.blockedUntil - now)) : 0,
  };
}

function seconds(milliseconds: number): number {
  return Math.max(0, Math.ceil(milliseconds / 1000));
}
