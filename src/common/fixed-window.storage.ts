import { ThrottlerStorage } from '@nestjs/throttler';

export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Window {
  hits: number;
  endsAt: number;
  blockedUntil: number;
}

/** Windows a storage keeps at most: about 200 B each, so the default bounds one storage to about 20 MB. */
export const DEFAULT_MAX_WINDOWS = 100_000;

/** Finished windows looked at per hit: more than one, so the sweep outpaces the keys one hit can add. */
const SWEEP_PER_HIT = 2;

/**
 * Fixed-window counters: O(1) per hit, in a bounded map. The throttler's default storage keeps one expiry per hit and
 * filters the list on every request, which at a million hits a minute for one key costs more than the request itself.
 *
 * The map is kept in the order its windows stop mattering (a window is moved to the end whenever its end moves), so
 * each hit forgets the finished windows at the front, a couple at a time, and a full map gives up the window that
 * would have been forgotten first. A storage counts windows of one length, which is what keeps that order true.
 */
export class FixedWindowThrottlerStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, Window>();

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
      window = { hits: 0, endsAt: now + ttl, blockedUntil: 0 };
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

  /** Puts the window at the end of the map (it now stops mattering last), making room when the map is full. */
  private place(key: string, window: Window): void {
    this.windows.delete(key);
    if (this.windows.size >= this.maxWindows) this.windows.delete(this.windows.keys().next().value!);
    this.windows.set(key, window);
  }

  /** Forgets up to a couple of finished windows at the front of the map: the sweep costs every hit the same. */
  private sweep(now: number): void {
    let looked = 0;
    for (const [key, window] of this.windows) {
      if (looked++ === SWEEP_PER_HIT || window.endsAt > now || window.blockedUntil > now) return;
      this.windows.delete(key);
    }
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
