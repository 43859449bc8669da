import { SqlNames } from '../database/sql-names';
import { PumpingGuard } from '../delivery-signals/pumping-guard';
import { DailyLimits, DailyUsage } from './daily-usage';

// Named, not imported: client/ reads sms-config/, and dispatch/ reads both tables.
export interface ClientRouting {
  id: number;
  preferredSmsGateway: string | null;
  allowedDestinations: string[] | null;
  dailySpendLimitMicros: string | null;
  dailySmsLimit: number | null;
  usageDay: string | null;
  spentToday: number;
  spentTodayMicros: string;
  sentToday: string;
  spendLimitReachedOn: string | null;
  smsLimitReachedOn: string | null;
  pumpingGuard: PumpingGuard;
  allowPremiumNumbers: boolean;
}

export const DAILY_COLUMNS = ['dailySmsLimit', 'usageDay', 'spendLimitReachedOn', 'smsLimitReachedOn'] as const satisfies ReadonlyArray<
  keyof ClientRouting
>;
export const DAILY_INTEGERS = ['dailySpendLimitMicros', 'spentTodayMicros', 'sentToday'] as const satisfies ReadonlyArray<
  keyof ClientRouting
>;
export type DailyRow = Pick<ClientRouting, (typeof DAILY_COLUMNS)[number]> & Record<(typeof DAILY_INTEGERS)[number], string | null>;

export type ClientDaily = DailyLimits & DailyUsage;

export type Decimal = string | number;
// Null in rows the previous release wrote.
export type Micros = string | null;
export type Timestamp = Date | string | null;

export function dailySelectList(client: SqlNames<ClientRouting>): string {
  return `${client.selectList('c', DAILY_COLUMNS)}, ${client.integerTextList('c', DAILY_INTEGERS)}`;
}

export function dailyOf(row: DailyRow): ClientDaily {
  return {
    dailySpendLimitMicros: row.dailySpendLimitMicros === null ? null : BigInt(row.dailySpendLimitMicros),
    dailySmsLimit: row.dailySmsLimit === null ? null : Number(row.dailySmsLimit),
    usageDay: row.usageDay,
    spentTodayMicros: BigInt(row.spentTodayMicros ?? 0),
    sentToday: Number(row.sentToday ?? 0),
    spendLimitReachedOn: row.spendLimitReachedOn,
    smsLimitReachedOn: row.smsLimitReachedOn,
  };
}
