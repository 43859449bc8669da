import { Counter, Gauge, Histogram, register } from 'prom-client';

/** Registered once on prom-client's default registry, which GET /metrics exposes; a second app in one process reuses them. */
function registered<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/** The notes of every app in the process (one in production), read when /metrics is scraped. */
export const pendingNotesSources = new Set<{ readonly size: number }>();

registered(
  'key_usage_pending_notes',
  () =>
    new Gauge({
      name: 'key_usage_pending_notes',
      help: 'Client keys used on this instance whose last use is not written yet',
      collect() {
        this.set([...pendingNotesSources].reduce((sum, notes) => sum + notes.size, 0));
      },
    }),
);

export const keyUsageFlushSeconds = registered(
  'key_usage_flush_duration_seconds',
  () =>
    new Histogram({
      name: 'key_usage_flush_duration_seconds',
      help: 'Time to write the last use of the keys noted in one interval',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);

export const keyUsageFlushFailures = registered(
  'key_usage_flush_failures_total',
  () => new Counter({ name: 'key_usage_flush_failures_total', help: 'Flushes of key usage that failed; their notes wait for the next' }),
);
