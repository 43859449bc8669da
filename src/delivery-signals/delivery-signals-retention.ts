import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Counter } from 'prom-client';
import { Clock, utcDayOf } from '../common/clock';
import { registeredMetric, zeroed } from '../common/registered-metric';
import { AppConfig } from '../config/app-config';
import { BatchDeletion, deleteInBatchesAsOnlyRelay } from '../events/batched-deletion';
import { OutboxRepository } from '../events/outbox.repository';
import { DeliverySignalsRetentionRepository } from './delivery-signals-retention.repository';
import { MINUTE_MS, firstMinuteOf } from './signal-windows';

// Every minute, so that a count goes within a few minutes of leaving its window (15 at most), even when a round is skipped.
const SWEEP_EVERY_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
// Velocity compares with the 7 UTC days before today.
const BASELINE_DAYS_KEPT_BEFORE_TODAY = 7;
const SUSPICIONS_KEPT_MS = 30 * DAY_MS;

export const SIGNAL_TABLES = ['delivery_count', 'pumping_count', 'pumping_baseline', 'pumping_range'] as const;
export type SignalTable = (typeof SIGNAL_TABLES)[number];

const rowsDeleted = registeredMetric('delivery_signals_rows_deleted_total', () =>
  zeroed(
    new Counter({
      name: 'delivery_signals_rows_deleted_total',
      help: 'Rows of the delivery signals deleted for leaving their window or their retention, by table',
      labelNames: ['table'],
    }),
    'table',
    SIGNAL_TABLES,
  ),
);

export interface RetentionBounds {
  // Minutes since the epoch: the first bucket still in each window, (now − W, now].
  firstKeptRateMinute: number;
  firstKeptPumpingMinute: number;
  // Today and the 7 UTC days before it are kept.
  firstKeptBaselineDay: string;
  // A suspicion that ended (lifted, else at its until) before this is deleted.
  rangesEndedBefore: Date;
}

export function retentionBounds(now: number, windows: { rateWindowMs: number; pumpingWindowMs: number }): RetentionBounds {
  return {
    firstKeptRateMinute: firstMinuteOf(now, windows.rateWindowMs),
    firstKeptPumpingMinute: firstMinuteOf(now, windows.pumpingWindowMs),
    firstKeptBaselineDay: utcDayOf(now - BASELINE_DAYS_KEPT_BEFORE_TODAY * DAY_MS),
    rangesEndedBefore: new Date(now - SUSPICIONS_KEPT_MS),
  };
}

/** Deletes counts past their window, baselines past 8 days and suspicions 30 days after they end: off the request path, as AuditRetention. */
@Injectable()
export class DeliverySignalsRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeliverySignalsRetention');
  private readonly windows: { rateWindowMs: number; pumpingWindowMs: number };
  private timer?: NodeJS.Timeout;
  private sweeping = false;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly repository: DeliverySignalsRetentionRepository,
    private readonly clock: Clock,
    config: ConfigService<AppConfig, true>,
  ) {
    const { rateWindowMs, pumpingWindowMs } = config.get('deliverySignals', { infer: true });
    this.windows = { rateWindowMs, pumpingWindowMs };
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweepUnlessSweeping(), SWEEP_EVERY_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async sweep(now = this.clock.now()): Promise<Record<SignalTable, number>> {
    const bounds = retentionBounds(now, this.windows);
    const deletions: Record<SignalTable, BatchDeletion> = {
      delivery_count: (manager, limit) => this.repository.deleteDeliveryCountsBefore(manager, bounds.firstKeptRateMinute, limit),
      pumping_count: (manager, limit) => this.repository.deletePumpingCountsBefore(manager, bounds.firstKeptPumpingMinute, limit),
      pumping_baseline: (manager, limit) => this.repository.deletePumpingBaselinesBefore(manager, bounds.firstKeptBaselineDay, limit),
      pumping_range: (manager, limit) => this.repository.deletePumpingRangesEndedBefore(manager, bounds.rangesEndedBefore, limit),
    };
    const deleted = { delivery_count: 0, pumping_count: 0, pumping_baseline: 0, pumping_range: 0 };
    try {
      for (const table of SIGNAL_TABLES) {
        const done = await deleteInBatchesAsOnlyRelay(this.outbox, deletions[table], (batch) => {
          deleted[table] += batch;
          rowsDeleted.inc({ table }, batch);
        });
        // Another instance is sweeping, or the relay is busy: the next round deletes the rest.
        if (!done) break;
      }
    } catch (error) {
      this.logger.warn(`Delivery signals past their window or retention not deleted: ${(error as Error).message}`);
    }
    return deleted;
  }

  // A round that outlasts the interval (a backlog after downtime) is not joined by the next one.
  private async sweepUnlessSweeping(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.sweep();
    } finally {
      this.sweeping = false;
    }
  }
}
