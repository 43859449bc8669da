import { ProviderHealth, healthStanding } from './provider-health';

// In the order checked: the first that applies is given.
export const SKIP_REASONS = ['inactive', 'unapproved', 'smsType', 'sms-limit', 'spend-limit', 'unhealthy', 'balance'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface RoutableSmsConfig extends ProviderHealth {
  smsConfigId: number;
  providerName: string;
  smsType: string | null;
  isActive: boolean;
  balanceMicros: bigint;
  perSmsCostMicros: bigint;
}

export interface RouteRequest<T extends RoutableSmsConfig = RoutableSmsConfig> {
  approved: (config: T) => boolean;
  // Delivered too little at the destination: after the others, before those offered again; never skipped.
  demoted?: (config: T) => boolean;
  preferredSmsGateway: string | null;
  smsType?: string;
  count: number;
  now: number;
  // The client's limits and what its reports counted today.
  daily: { dailySpendLimitMicros: bigint | null; dailySmsLimit: number | null; spentMicros: bigint; sent: number };
}

export interface Route<T extends RoutableSmsConfig> {
  candidates: T[];
  skipped: Array<{ smsConfigId: number; reason: SkipReason }>;
}

const sameText = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

export function route<T extends RoutableSmsConfig>(configs: readonly T[], request: RouteRequest<T>): Route<T> {
  const candidates: T[] = [];
  const skipped: Route<T>['skipped'] = [];
  for (const config of [...configs].sort((a, b) => a.smsConfigId - b.smsConfigId)) {
    const reason = skipReason(config, request);
    if (reason === null) candidates.push(config);
    else skipped.push({ smsConfigId: config.smsConfigId, reason });
  }
  const rank = (config: T) => ({
    offeredAgain: healthStanding(config, request.now) === 'offeredAgain' ? 1 : 0,
    demoted: request.demoted?.(config) ? 1 : 0,
    preferred: request.preferredSmsGateway !== null && sameText(config.providerName, request.preferredSmsGateway) ? 0 : 1,
  });
  candidates.sort((a, b) => {
    const [rankA, rankB] = [rank(a), rank(b)];
    return (
      rankA.offeredAgain - rankB.offeredAgain ||
      rankA.demoted - rankB.demoted ||
      rankA.preferred - rankB.preferred ||
      compare(a.perSmsCostMicros, b.perSmsCostMicros) ||
      compare(b.balanceMicros, a.balanceMicros) ||
      a.smsConfigId - b.smsConfigId
    );
  });
  return { candidates, skipped };
}

function skipReason<T extends RoutableSmsConfig>(config: T, { approved, smsType, count, now, daily }: RouteRequest<T>): SkipReason | null {
  if (!config.isActive) return 'inactive';
  if (!approved(config)) return 'unapproved';
  if (smsType !== undefined && (config.smsType === null || !sameText(config.smsType, smsType))) return 'smsType';
  if (daily.dailySmsLimit !== null && daily.sent + count > daily.dailySmsLimit) return 'sms-limit';
  if (daily.dailySpendLimitMicros !== null && daily.spentMicros + config.perSmsCostMicros * BigInt(count) > daily.dailySpendLimitMicros) {
    return 'spend-limit';
  }
  if (healthStanding(config, now) === 'skipped') return 'unhealthy';
  if (config.balanceMicros < config.perSmsCostMicros * BigInt(count)) return 'balance';
  return null;
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
