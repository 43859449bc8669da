import { Clock, MonotonicClock, utcDayOf } from './clock';

describe('Clock', () => {
  it('should read the system’s time, with nothing that sets it', () => {
    const clock = new Clock();
    const before = Date.now();
    const read = clock.now();
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThanOrEqual(Date.now());
    // No state and no method but the two reads: a setter added here would reach production.
    expect(Object.keys(clock)).toEqual([]);
    expect(Object.getOwnPropertyNames(Clock.prototype).sort()).toEqual(['constructor', 'now', 'today']);
  });

  it('should measure waits by performance.now(), with nothing that sets it', () => {
    const clock = new MonotonicClock();
    const before = performance.now();
    const read = clock.now();
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThanOrEqual(performance.now());
    expect(Object.keys(clock)).toEqual([]);
    expect(Object.getOwnPropertyNames(MonotonicClock.prototype).sort()).toEqual(['constructor', 'now']);
  });

  it('should name the UTC day, whatever the process’s time zone', () => {
    expect(utcDayOf(Date.parse('2026-11-26T23:59:59.999Z'))).toBe('2026-11-26');
    expect(utcDayOf(Date.parse('2026-11-27T00:00:00.000Z'))).toBe('2026-11-27');
    expect(utcDayOf(Date.parse('2026-11-27T00:30:00.000+01:00'))).toBe('2026-11-26');
  });
});
