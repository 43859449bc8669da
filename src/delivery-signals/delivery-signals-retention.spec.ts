import { retentionBounds } from './delivery-signals-retention';

const WINDOWS = { rateWindowMs: 15 * 60_000, pumpingWindowMs: 60 * 60_000 };

describe('retentionBounds', () => {
  it('should keep the minutes whose bucket starts in (now − W, now], and no earlier one', () => {
    const minute = 29_400_000;
    // 30 s into the minute: the bucket 15 minutes back started 15.5 min ago, out of a 15 min window; the next one is in.
    const bounds = retentionBounds(minute * 60_000 + 30_000, WINDOWS);
    expect(bounds.firstKeptRateMinute).toBe(minute - 14);
    expect(bounds.firstKeptPumpingMinute).toBe(minute - 59);
  });

  it('should drop the bucket that starts exactly at now − W, and keep it 1 ms earlier', () => {
    const minute = 29_400_000;
    const now = minute * 60_000;
    // At the start of a minute, the bucket W back starts exactly at now − W: out.
    expect(retentionBounds(now, WINDOWS).firstKeptRateMinute).toBe(minute - 14);
    expect(retentionBounds(now - 1, WINDOWS).firstKeptRateMinute).toBe(minute - 15);
  });

  it('should keep today and the 7 UTC days before it, and suspicions that ended 30 days ago or later', () => {
    const now = Date.parse('2026-11-28T00:00:00.000Z');
    const bounds = retentionBounds(now, WINDOWS);
    expect(bounds.firstKeptBaselineDay).toBe('2026-11-21');
    expect(retentionBounds(Date.parse('2026-11-28T23:59:59.999Z'), WINDOWS).firstKeptBaselineDay).toBe('2026-11-21');
    expect(bounds.rangesEndedBefore.toISOString()).toBe('2026-10-29T00:00:00.000Z');
  });
});
