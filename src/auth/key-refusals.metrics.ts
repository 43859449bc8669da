import { Counter } from 'prom-client';
import { registeredMetric, zeroed } from '../common/registered-metric';

const KEY_REFUSALS = ['key-source', 'key-scope'] as const;
export type KeyRefusal = (typeof KEY_REFUSALS)[number];

const keyRefusals = registeredMetric('secret_key_refusals_total', () =>
  zeroed(
    new Counter({
      name: 'secret_key_refusals_total',
      help: 'Requests with a known secretKey refused: used from outside its allowedSources, or on a route its scopes do not reach',
      labelNames: ['reason'],
    }),
    'reason',
    KEY_REFUSALS,
  ),
);

export function countKeyRefusal(reason: KeyRefusal): void {
  keyRefusals.inc({ reason });
}
