import { Metric, register } from 'prom-client';

// Tests run two apps in one process, and registering a metric twice throws.
export function registeredMetric<T extends Metric>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}
