import { Counter, Metric, register } from 'prom-client';

// Tests run two apps in one process, and registering a metric twice throws.
export function registeredMetric<T extends Metric>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

// Every series exists from the start, so that increase() over Prometheus' samples counts a first event too.
export function zeroed<T extends string>(counter: Counter<T>, label: T, values: readonly string[]): Counter<T> {
  for (const value of values) counter.inc({ [label]: value } as Partial<Record<T, string>>, 0);
  return counter;
}
