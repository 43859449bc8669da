import { MAX_AMOUNT_EXCLUSIVE } from '../common/validation/decorators';

export const DAILY_LIMITS = ['dailySpendLimit', 'dailySmsLimit'] as const;
export type DailyLimit = (typeof DAILY_LIMITS)[number];

// What DECIMAL(18,6) holds: past it, spentToday stays there, beyond every limit an admin can set.
const MAX_SPENT_MICROS = BigInt(MAX_AMOUNT_EXCLUSIVE) * 1_000_000n - 1n;

export interface DailyLimits {
  dailySpendLimitMicros: bigint | null;
  dailySmsLimit: number | null;
}

/** A client's sums as stored: they count the UTC day usageDay, and nothing on any other. */
export interface DailyUsage {
  usageDay: string | null;
  spentTodayMicros: bigint;
  sentToday: number;
  spendLimitReachedOn: string | null;
  smsLimitReachedOn: string | null;
}

export function usageOn(today: string, usage: DailyUsage): { spentMicros: bigint; sent: number } {
  return usage.usageDay === today ? { spentMicros: usage.spentTodayMicros, sent: usage.sentToday } : { spentMicros: 0n, sent: 0 };
}

/** The sums after a report of `sent` (≥ 1) messages costing `spentMicros`, and each limit it is the first today to reach. */
export function usageAfterReport(
  client: DailyLimits & DailyUsage,
  today: string,
  report: { spentMicros: bigint; sent: number },
): { usage: DailyUsage; reached: DailyLimit[] } {
  const before = usageOn(today, client);
  const spent = before.spentMicros + report.spentMicros;
  const usage: DailyUsage = {
    usageDay: today,
    spentTodayMicros: spent > MAX_SPENT_MICROS ? MAX_SPENT_MICROS : spent,
    sentToday: before.sent + report.sent,
    spendLimitReachedOn: client.spendLimitReachedOn,
    smsLimitReachedOn: client.smsLimitReachedOn,
  };
  const reached: DailyLimit[] = [];
  if (
    client.dailySpendLimitMicros !== null &&
    usage.spentTodayMicros >= client.dailySpendLimitMicros &&
    client.spendLimitReachedOn !== today
  ) {
    usage.spendLimitReachedOn = today;
    reached.push('dailySpendLimit');
  }
  if (client.dailySmsLimit !== null && usage.sentToday >= client.dailySmsLimit && client.smsLimitReachedOn !== today) {
    usage.smsLimitReachedOn = today;
    reached.push('dailySmsLimit');
  }
  return { usage, reached };
}
