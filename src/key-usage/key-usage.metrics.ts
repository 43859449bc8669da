import { Counter, Gauge, Histogram } from 'prom-client';
import { registeredMetric } from '../common/registered-metric';

// A set: every app in the process adds its notes (one app in production, several in tests).
export const pendingNotesSources = new Set<{ readonly size: number }>();

registeredMetric(
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

export const keyUsageFlushSeconds = registeredMetric(
  'key_usage_flush_duration_seconds',
  () =>
    new Histogram({
      name: 'key_usage_flush_duration_seconds',
      help: 'Time to write the last use of the keys noted in one interval',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);

export const keyUsageFlushFailures = registeredMetric(
  'key_usage_flush_failures_total',
  () => new Counter({ name: 'key_usage_flush_failures_total', help: 'Flushes of key usage that failed; their notes wait for the next' }),
);
