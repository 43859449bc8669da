import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Counter } from 'prom-client';
import { AuditLog } from '../audit/audit.repository';
import { registeredMetric } from '../common/registered-metric';
import { AppConfig } from '../config/app-config';
import { deleteInBatchesAsOnlyRelay } from './batched-deletion';
import { OutboxRepository } from './outbox.repository';

const RETENTION_EVERY_MS = 15 * 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;

export const retentionRowsDeleted = registeredMetric(
  'audit_retention_rows_deleted_total',
  () =>
    new Counter({
      name: 'audit_retention_rows_deleted_total',
      help: 'Audit entries (published or never to be published) deleted for being older than AUDIT_RETENTION_DAYS',
    }),
);

@Injectable()
export class AuditRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AuditRetention');
  private readonly retentionMs: number;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly auditLog: AuditLog,
    config: ConfigService<AppConfig, true>,
  ) {
    this.retentionMs = config.get('auditRetentionDays', { infer: true }) * DAY_MS;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), RETENTION_EVERY_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async sweep(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.retentionMs);
    let deleted = 0;
    try {
      await deleteInBatchesAsOnlyRelay(
        this.outbox,
        (manager, limit) => this.auditLog.deleteBefore(manager, before, limit),
        (batch) => {
          deleted += batch;
          retentionRowsDeleted.inc(batch);
        },
      );
    } catch (error) {
      this.logger.warn(`Audit entries past their retention not deleted: ${(error as Error).message}`);
    }
    return deleted;
  }
}
