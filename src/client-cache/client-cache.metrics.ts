import { Counter } from 'prom-client';
import { registeredMetric } from '../common/registered-metric';

function counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
  return registeredMetric(name, () => new Counter({ name, help, labelNames }));
}

export const clientCacheHits = counter('client_cache_hits_total', 'get-client and secretKey lookups answered from the cache', ['kind']);
export const clientCacheMisses = counter('client_cache_misses_total', 'get-client and secretKey lookups that went to the database');
