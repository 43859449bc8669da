import { Counter, Gauge, register } from 'prom-client';
import { scrapedFigure } from '../common/scraped-figure';
import { registeredMetric, zeroed } from '../common/registered-metric';
import { DAILY_LIMITS, DailyLimit } from './daily-usage';
import { SKIP_REASONS, SkipReason } from './dispatch-routing';

// providerName is a client's free text: past this many names, `other`, so a client cannot grow the series without bound.
export const MAX_PROVIDER_LABELS = 50;
export const OTHER_PROVIDERS = 'other';
export const MAX_LABEL_LENGTH = 64;

const NOT_PRINTABLE = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/gu;

const counter = (name: string, help: string) => registeredMetric(name, () => new Counter({ name, help, labelNames: ['provider'] }));

const reports = counter('dispatch_reports_total', 'Outcome reports taken, by provider name');
const sent = counter('dispatch_sms_sent_total', 'Messages reported sent, by provider name');
const failed = counter('dispatch_sms_failed_total', 'Messages reported failed, by provider name');

const ROUTE_REFUSALS = ['impossible-number', 'destination-required', 'destination-not-allowed', 'number-type', 'pumping-blocked'] as const;
export type RouteRefusal = (typeof ROUTE_REFUSALS)[number];

const routeRefusals = registeredMetric('dispatch_route_refusals_total', () =>
  zeroed(
    new Counter({ name: 'dispatch_route_refusals_total', help: 'Route requests refused, by reason', labelNames: ['reason'] }),
    'reason',
    ROUTE_REFUSALS,
  ),
);

export function countRouteRefusal(reason: RouteRefusal): void {
  routeRefusals.inc({ reason });
}

// What outcomes made of a destination: e164 as given, respelled (counted as its E.164 form), unreadable (counted as none).
const DESTINATION_READINGS = ['e164', 'respelled', 'unreadable'] as const;
type DestinationReading = (typeof DESTINATION_READINGS)[number];

const reportDestinations = registeredMetric('dispatch_report_destinations_total', () =>
  zeroed(
    new Counter({
      name: 'dispatch_report_destinations_total',
      help:
        'Destinations given on outcome reports, by reading: e164 (as given), respelled (counted as its E.164 form), ' +
        'unreadable (unknown calling code or impossible number: counted as a report without destination)',
      labelNames: ['reading'],
    }),
    'reading',
    DESTINATION_READINGS,
  ),
);

export function countReportDestination(reading: DestinationReading): void {
  reportDestinations.inc({ reading });
}

const routeSkips = registeredMetric('dispatch_route_skips_total', () =>
  zeroed(
    new Counter({ name: 'dispatch_route_skips_total', help: 'Configurations route skipped, by reason', labelNames: ['reason'] }),
    'reason',
    SKIP_REASONS,
  ),
);

export function countRouteSkips(skipped: ReadonlyArray<{ reason: SkipReason }>): void {
  if (skipped.length === 0) return;
  const byReason = new Map<SkipReason, number>();
  for (const { reason } of skipped) byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  for (const [reason, count] of byReason) routeSkips.inc({ reason }, count);
}

const dailyLimitsReached = registeredMetric('dispatch_daily_limits_reached_total', () =>
  zeroed(
    new Counter({
      name: 'dispatch_daily_limits_reached_total',
      help: 'Clients that reached a daily limit (client.daily-limit-reached), by limit',
      labelNames: ['limit'],
    }),
    'limit',
    DAILY_LIMITS,
  ),
);

export function countDailyLimitReached(limit: DailyLimit): void {
  dailyLimitsReached.inc({ limit });
}

const labels = new Set<string>();

export function providerLabel(providerName: string): string {
  const name = printableLabel(providerName.toLowerCase());
  if (labels.has(name)) return name;
  if (labels.size >= MAX_PROVIDER_LABELS) return OTHER_PROVIDERS;
  labels.add(name);
  return name;
}

export function printableLabel(text: string): string {
  const printable = text.replace(NOT_PRINTABLE, '_');
  // By code points, so that a cut never leaves half of a surrogate pair.
  return printable.length <= MAX_LABEL_LENGTH ? printable : Array.from(printable).slice(0, MAX_LABEL_LENGTH).join('');
}

export function countReport(providerName: string, counts: { sent: number; failed: number }): void {
  const provider = providerLabel(providerName);
  reports.inc({ provider });
  if (counts.sent > 0) sent.inc({ provider }, counts.sent);
  if (counts.failed > 0) failed.inc({ provider }, counts.failed);
}

export const UNHEALTHY_SMS_CONFIGS_GAUGE = 'dispatch_sms_configs_unhealthy';

// Replaced, not reused: the gauge reads through the newest app's repository (tests run two apps in a process).
export function unhealthySmsConfigsGauge(countUnhealthy: () => Promise<number>): Gauge {
  const read = scrapedFigure(countUnhealthy, 0);
  register.removeSingleMetric(UNHEALTHY_SMS_CONFIGS_GAUGE);
  return new Gauge({
    name: UNHEALTHY_SMS_CONFIGS_GAUGE,
    help: 'SMS configurations that turned unhealthy (5 failures in a row) and have not sent since, over all clients',
    async collect() {
      this.set(await read());
    },
  });
}
