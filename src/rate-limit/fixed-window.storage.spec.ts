import { FixedWindowThrottlerStorage } from './fixed-window.storage';

describe('FixedWindowThrottlerStorage', () => {
  const t0 = 1_000_000;

  it('should allow the limit within a window, block the next hit for the block duration, then start afresh', () => {
    const storage = new FixedWindowThrottlerStorage();
    for (let i = 1; i <= 3; i++) expect(storage.hit('k', 60_000, 3, 30_000, t0 + i)).toMatchObject({ totalHits: i, isBlocked: false });
    expect(storage.hit('k', 60_000, 3, 30_000, t0 + 10)).toEqual({
      totalHits: 4,
      timeToExpire: 60,
      isBlocked: true,
      timeToBlockExpire: 30,
    });
    expect(storage.hit('k', 60_000, 3, 30_000, t0 + 20_010).timeToBlockExpire).toBe(10);
    expect(storage.hit('k', 60_000, 3, 30_000, t0 + 60_001)).toMatchObject({ totalHits: 1, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('should keep keys apart', () => {
    const storage = new FixedWindowThrottlerStorage();
    expect(storage.hit('a', 1000, 1, 1000, t0).isBlocked).toBe(false);
    expect(storage.hit('a', 1000, 1, 1000, t0).isBlocked).toBe(true);
    expect(storage.hit('b', 1000, 1, 1000, t0).isBlocked).toBe(false);
  });

  it('should forget finished windows a couple per hit, so one-off keys do not accumulate and no hit pays for a full sweep', () => {
    const storage = new FixedWindowThrottlerStorage();
    for (let i = 0; i < 100; i++) storage.hit(`guess-${i}`, 1000, 5, 1000, t0);
    expect(storage.size).toBe(100);
    storage.hit('later', 1000, 5, 1000, t0 + 5000);
    expect(storage.size).toBe(99);
    for (let i = 0; i < 49; i++) storage.hit('later', 1000, 5, 1000, t0 + 5000);
    expect(storage.size).toBe(1);
  });

  it('should keep a blocked window past its end until the block is over', () => {
    const storage = new FixedWindowThrottlerStorage();
    storage.hit('guesser', 1000, 1, 10_000, t0);
    storage.hit('guesser', 1000, 1, 10_000, t0);
    for (let i = 0; i < 10; i++) storage.hit(`caller-${i}`, 1000, 5, 10_000, t0 + 5000);
    expect(storage.blockedFor('guesser', t0 + 5000)).toBe(5);
    expect(storage.blockedFor('guesser', t0 + 10_001)).toBe(0);
  });

  it('should never hold more windows than its bound, giving up the one that would be forgotten first', () => {
    const storage = new FixedWindowThrottlerStorage(1000);
    for (let i = 0; i < 200_000; i++) storage.hit(`made-up-${i}`, 60_000, 5, 60_000, t0 + i);
    expect(storage.size).toBe(1000);
    expect(storage.blockedFor('made-up-199999', t0 + 200_000)).toBe(0);
    storage.hit('made-up-199999', 60_000, 1, 60_000, t0 + 200_000);
    expect(storage.hit('made-up-199999', 60_000, 1, 60_000, t0 + 200_000).totalHits).toBe(3);
    expect(storage.hit('made-up-0', 60_000, 5, 60_000, t0 + 200_000).totalHits).toBe(1);
  });

  it('should forget a window placed again only when its latest end has passed, and not hold on to its earlier places', () => {
    const storage = new FixedWindowThrottlerStorage(100);
    // A busy key's window starts afresh every second for 5,000 seconds, while one-off keys come and go.
    for (let second = 0; second < 5000; second++) {
      const now = t0 + second * 1000;
      expect(storage.hit('busy', 1000, 1_000_000, 1000, now).totalHits).toBe(1);
      expect(storage.hit('busy', 1000, 1_000_000, 1000, now + 500).totalHits).toBe(2);
      storage.hit(`one-off-${second}`, 1000, 5, 1000, now + 500);
      expect(storage.size).toBeLessThanOrEqual(3);
    }
    const queued = (storage as unknown as { queue: unknown[]; head: number }).queue.length;
    expect(queued).toBeLessThan(2 * 1024 + 10);
  });

  it('should report a block without counting a hit', () => {
    const storage = new FixedWindowThrottlerStorage();
    expect(storage.blockedFor('k', t0)).toBe(0);
    storage.hit('k', 60_000, 1, 30_000, t0);
    expect(storage.blockedFor('k', t0)).toBe(0);
    storage.hit('k', 60_000, 1, 30_000, t0);
    expect(storage.blockedFor('k', t0 + 1000)).toBe(29);
    expect(storage.hit('k', 60_000, 1, 30_000, t0 + 1000).totalHits).toBe(3);
  });

  it('should answer the throttler interface under the throttler name', async () => {
    const storage = new FixedWindowThrottlerStorage();
    await storage.increment('k', 1000, 1, 1000, 'default');
    expect((await storage.increment('k', 1000, 1, 1000, 'default')).isBlocked).toBe(true);
    expect((await storage.increment('k', 1000, 1, 1000, 'other')).isBlocked).toBe(false);
  });
});
