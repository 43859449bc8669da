import { Metric, register } from 'prom-client';

/**
 * A metric on prom-client's default registry, which GET /metrics exposes: made once, and reused by a second app in the
 * same process (tests run two), where making it again would throw.
 */
export function registeredMetric<T extends Metric>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}
