import { ThrottlerStorage } from '@nestjs/throttler';

export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Window {
  hits: number;
  endsAt: number;
  blockedUntil: number;
  // The key's other places in the queue are stale.
  place: number;
}

interface Place {
  key: string;
  window: Window;
  place: number;
}

// About 200 B each: about 20 MB a storage.
export const DEFAULT_MAX_WINDOWS = 100_000;

// More than one, so the sweep outpaces the keys one hit can add.
const SWEEP_PER_HIT = 2;

const COMPACT_AFTER = 1024;

// The default storage filters a list of expiries per hit (docs/architecture.md, The rate-limit counters).
export class FixedWindowThrottlerStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, Window>();
  private queue: Place[] = [];
  private head = 0;
  private places = 0;

  constructor(private readonly maxWindows = DEFAULT_MAX_WINDOWS) {}

  increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    return Promise.resolve(this.hit(FixedWindowThrottlerStorage.keyOf(throttlerName, key), ttl, limit, blockDuration));
  }

  // hit() with this key counts in the same window as increment().
  static keyOf(throttlerName: string, key: string): string {
    return `${throttlerName}:${key}`;
  }

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

  blockedFor(key: string, now = Date.now()): number {
    const window = this.windows.get(key);
    return window && window.blockedUntil > now ? Math.max(1, seconds(window.blockedUntil - now)) : 0;
  }

  get size(): number {
    return this.windows.size;
  }

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

  private sweep(now: number): void {
    for (let looked = 0; looked < SWEEP_PER_HIT; looked++) {
      const front = this.front();
      if (front === undefined || front.window.endsAt > now || front.window.blockedUntil > now) return;
      this.windows.delete(front.key);
      this.head++;
    }
  }

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
