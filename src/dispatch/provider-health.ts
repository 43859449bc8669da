export const FAILURES_TO_TURN_UNHEALTHY = 5;

// A count that only matters up to 5 need not grow without end.
const MAX_COUNTED_FAILURES = 1_000_000;

export interface ProviderHealth {
  consecutiveFailures: number;
  unhealthyUntil: number | null;
}

export interface ReportedCounts {
  sent: number;
  failed: number;
}

export type HealthCrossing = 'sms-config.unhealthy' | 'sms-config.healthy';

export function healthStanding({ unhealthyUntil }: ProviderHealth, now: number): 'healthy' | 'skipped' | 'offeredAgain' {
  if (unhealthyUntil === null) return 'healthy';
  return now < unhealthyUntil ? 'skipped' : 'offeredAgain';
}

// One offered again turns unhealthy again at its next failure without a new event: it never was healthy in between.
export function healthAfterReport(
  health: ProviderHealth,
  { sent, failed }: ReportedCounts,
  now: number,
  unhealthyMs: number,
): { health: ProviderHealth; crossing: HealthCrossing | null } {
  if (sent >= 1) {
    return {
      health: { consecutiveFailures: 0, unhealthyUntil: null },
      crossing: health.unhealthyUntil === null ? null : 'sms-config.healthy',
    };
  }
  const consecutiveFailures = Math.min(health.consecutiveFailures + failed, MAX_COUNTED_FAILURES);
  const standing = healthStanding(health, now);
  if (standing === 'healthy' && consecutiveFailures >= FAILURES_TO_TURN_UNHEALTHY) {
    return { health: { consecutiveFailures, unhealthyUntil: now + unhealthyMs }, crossing: 'sms-config.unhealthy' };
  }
  if (standing === 'offeredAgain' && failed >= 1) {
    return { health: { consecutiveFailures, unhealthyUntil: now + unhealthyMs }, crossing: null };
  }
  return { health: { consecutiveFailures, unhealthyUntil: health.unhealthyUntil }, crossing: null };
}
