import { DailyLimits, DailyUsage, usageAfterReport, usageOn } from './daily-usage';

const TODAY = '2026-11-26';
const YESTERDAY = '2026-11-25';
const client = (fields: Partial<DailyLimits & DailyUsage> = {}): DailyLimits & DailyUsage => ({
  dailySpendLimitMicros: null,
  dailySmsLimit: null,
  usageDay: TODAY,
  spentTodayMicros: 0n,
  sentToday: 0,
  spendLimitReachedOn: null,
  smsLimitReachedOn: null,
  ...fields,
});

describe('daily usage', () => {
  it('should count nothing on a day other than the one the sums were kept for', () => {
    const stored = client({ usageDay: YESTERDAY, spentTodayMicros: 5_000_000n, sentToday: 7 });
    expect(usageOn(TODAY, stored)).toEqual({ spentMicros: 0n, sent: 0 });
    expect(usageOn(YESTERDAY, stored)).toEqual({ spentMicros: 5_000_000n, sent: 7 });
    expect(usageOn(TODAY, client({ usageDay: null }))).toEqual({ spentMicros: 0n, sent: 0 });
  });

  it('should add a report to today and start again on a new day', () => {
    const stored = client({ spentTodayMicros: 1_500_000n, sentToday: 3 });
    expect(usageAfterReport(stored, TODAY, { spentMicros: 250_000n, sent: 5 }).usage).toMatchObject({
      usageDay: TODAY,
      spentTodayMicros: 1_750_000n,
      sentToday: 8,
    });
    expect(usageAfterReport({ ...stored, usageDay: YESTERDAY }, TODAY, { spentMicros: 250_000n, sent: 5 }).usage).toMatchObject({
      usageDay: TODAY,
      spentTodayMicros: 250_000n,
      sentToday: 5,
    });
  });

  it('should keep spentToday within DECIMAL(18,6), past every limit', () => {
    const stored = client({ spentTodayMicros: 999_999_999_999_000_000n });
    const { usage } = usageAfterReport(stored, TODAY, { spentMicros: 10n ** 23n, sent: 1 });
    expect(usage.spentTodayMicros).toBe(999_999_999_999_999_999n);
  });

  it('should name each limit the first report of the day reaches, exactly at it, and never twice a day', () => {
    const limited = client({ dailySpendLimitMicros: 1_000_000n, dailySmsLimit: 10, spentTodayMicros: 900_000n, sentToday: 9 });
    expect(usageAfterReport(limited, TODAY, { spentMicros: 99_999n, sent: 0 }).reached).toEqual([]);
    const atBoth = usageAfterReport(limited, TODAY, { spentMicros: 100_000n, sent: 1 });
    expect(atBoth.reached).toEqual(['dailySpendLimit', 'dailySmsLimit']);
    expect(atBoth.usage).toMatchObject({ spendLimitReachedOn: TODAY, smsLimitReachedOn: TODAY });
    expect(usageAfterReport({ ...limited, ...atBoth.usage }, TODAY, { spentMicros: 1n, sent: 1 }).reached).toEqual([]);
    // Reached yesterday: today's first report past the limit names it again.
    const yesterday = { ...limited, usageDay: YESTERDAY, spendLimitReachedOn: YESTERDAY, smsLimitReachedOn: YESTERDAY };
    expect(usageAfterReport(yesterday, TODAY, { spentMicros: 2_000_000n, sent: 1 }).reached).toEqual(['dailySpendLimit']);
  });
});
