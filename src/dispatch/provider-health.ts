/** Failed reports in a row (their `failed` counts summed, no send between) that turn a healthy configuration unhealthy. */
export const FAILURES_TO_TURN_UNHEALTHY = 5;

/** Kept in the column; a count that only matters up to 5 need not grow without end. */
const MAX_COUNTED_FAILURES = 1_000_000;

/** A configuration's health as stored: healthy while `unhealthyUntil` is null. */
export interface ProviderHealth {
  consecutiveFailures: number;
  /** Epoch ms: skipped until then; offered again, last, after it, until a send makes it healthy. */
  unhealthyUntil: number | null;
}

/** What one report counted. */
export interface ReportedCounts {
  sent: number;
  failed: number;
}

/** The event a report's crossing publishes, once. */
export type HealthCrossing = 'sms-config.unhealthy' | 'sms-config.healthy';

/** Whether routing skips it now (`skipped`), offers it last (`offeredAgain`), or offers it as usual (`healthy`). */
export function healthStanding({ unhealthyUntil }: ProviderHealth, now: number): 'healthy' | 'skipped' | 'offeredAgain' {
  if (unhealthyUntil === null) return 'healthy';
  return now < unhealthyUntil ? 'skipped' : 'offeredAgain';
}

/**
 * The health after a report: a send makes it healthy and clears the count; failures add up, and the fifth turns a
 * healthy configuration unhealthy for `unhealthyMs`. One offered again after that turns unhealthy as long again at its
 * next failed report, without a new event: it never was healthy in between.
 */
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
