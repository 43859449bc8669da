import { Counter } from 'prom-client';
import { registeredMetric, zeroed } from '../common/registered-metric';
import { PumpingGuard } from '../client/client.entity';
import { PUMPING_SIGNALS, PumpingSignal } from './pumping-range.entity';

// No label carries a range, a destination, a calling code or a client: those are the callers' to vary without bound.
export const SIGNAL_KINDS = ['delivered', 'undelivered', 'codesSent', 'verified'] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];

const signalsReported = registeredMetric('dispatch_delivery_signals_total', () =>
  zeroed(
    new Counter({
      name: 'dispatch_delivery_signals_total',
      help: 'Receipts and codes reported on outcomes, by kind (delivered, undelivered, codesSent, verified)',
      labelNames: ['kind'],
    }),
    'kind',
    SIGNAL_KINDS,
  ),
);

const demotions = registeredMetric(
  'dispatch_route_demotions_total',
  () =>
    new Counter({
      name: 'dispatch_route_demotions_total',
      help: 'Route candidates put after the others for a delivery rate under DELIVERY_RATE_DEMOTE_BELOW at the destination',
    }),
);

const suspicions = registeredMetric('dispatch_pumping_suspicions_total', () => {
  const counter = new Counter({
    name: 'dispatch_pumping_suspicions_total',
    help: 'Ranges suspected of SMS pumping, by signal (velocity, conversion) and the client’s mode (monitor, block)',
    labelNames: ['signal', 'mode'],
  });
  // Every series from the start, as zeroed() does for one label.
  for (const signal of PUMPING_SIGNALS) for (const mode of ['monitor', 'block']) counter.inc({ signal, mode }, 0);
  return counter;
});

export function countDeliverySignals(counts: Record<SignalKind, number>): void {
  for (const kind of SIGNAL_KINDS) if (counts[kind] > 0) signalsReported.inc({ kind }, counts[kind]);
}

export function countDemotions(demoted: number): void {
  if (demoted > 0) demotions.inc(demoted);
}

export function countSuspicion(signals: readonly PumpingSignal[], mode: PumpingGuard): void {
  for (const signal of signals) suspicions.inc({ signal, mode });
}
