import { Counter, Gauge, register } from 'prom-client';
import { scrapedFigure } from '../common/scraped-figure';
import { registeredMetric } from '../common/registered-metric';

/**
 * providerName is a client's free text: the first names seen (lower-cased) get a label each, any more are counted
 * as `other`, so a client cannot grow the series without bound.
 */
export const MAX_PROVIDER_LABELS = 50;
export const OTHER_PROVIDERS = 'other';

const counter = (name: string, help: string) => registeredMetric(name, () => new Counter({ name, help, labelNames: ['provider'] }));

const reports = counter('dispatch_reports_total', 'Outcome reports taken, by provider name');
const sent = counter('dispatch_sms_sent_total', 'Messages reported sent, by provider name');
const failed = counter('dispatch_sms_failed_total', 'Messages reported failed, by provider name');

/** The provider label of each name, up to MAX_PROVIDER_LABELS of them, shared by every app in the process. */
const labels = new Set<string>();

export function providerLabel(providerName: string): string {
  const name = providerName.toLowerCase();
  if (labels.has(name)) return name;
  if (labels.size >= MAX_PROVIDER_LABELS) return OTHER_PROVIDERS;
  labels.add(name);
  return name;
}

/** One report taken: counted, never audited. */
export function countReport(providerName: string, counts: { sent: number; failed: number }): void {
  const provider = providerLabel(providerName);
  reports.inc({ provider });
  if (counts.sent > 0) sent.inc({ provider }, counts.sent);
  if (counts.failed > 0) failed.inc({ provider }, counts.failed);
}

export const UNHEALTHY_SMS_CONFIGS_GAUGE = 'dispatch_sms_configs_unhealthy';

/**
 * Configurations not healthy (skipped by routing, or offered again and not yet sent through), over all clients, read
 * at each scrape; a new application (tests run two in a process) replaces the gauge of the one before.
 */
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
