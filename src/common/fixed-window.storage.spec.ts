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

  it('should forget finished windows so one-off keys do not accumulate', () => {
    const storage = new FixedWindowThrottlerStorage();
    for (let i = 0; i < 100; i++) storage.hit(`guess-${i}`, 1000, 5, 1000, t0);
    expect(storage.size).toBe(100);
    storage.hit('later', 1000, 5, 1000, t0 + 5000);
    expect(storage.size).toBe(1);
  });

  it('should answer the throttler interface under the throttler name', async () => {
    const storage = new FixedWindowThrottlerStorage();
    await storage.increment('k', 1000, 1, 1000, 'default');
    expect((await storage.increment('k', 1000, 1, 1000, 'default')).isBlocked).toBe(true);
    expect((await storage.increment('k', 1000, 1, 1000, 'other')).isBlocked).toBe(false);
  });
});
