import { Counter, Histogram } from 'prom-client';
import { registeredMetric } from '../common/registered-metric';

function counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
  return registeredMetric(name, () => new Counter({ name, help, labelNames }));
}

export const clientCacheHits = counter('client_cache_hits_total', 'get-client and secretKey lookups answered from the cache', ['kind']);
export const clientCacheMisses = counter('client_cache_misses_total', 'get-client and secretKey lookups that went to the database');

export const clientReadBatchKeys = registeredMetric(
  'client_cache_miss_batch_keys',
  () =>
    new Histogram({
      name: 'client_cache_miss_batch_keys',
      help: 'Keys read by one statement when get-client and secretKey lookups miss the cache',
      buckets: [1, 2, 4, 8, 16, 32],
    }),
);
