import { Counter, register } from 'prom-client';

/** Registered once on prom-client's default registry, which GET /metrics exposes; a second app in one process reuses them. */
function counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
  return (register.getSingleMetric(name) as Counter<string> | undefined) ?? new Counter({ name, help, labelNames });
}

/** kind: `found` (a client's answer) or `unknown` (a key known to belong to no client). */
export const clientCacheHits = counter('client_cache_hits_total', 'get-client and secretKey lookups answered from the cache', ['kind']);
export const clientCacheMisses = counter('client_cache_misses_total', 'get-client and secretKey lookups that went to the database');
