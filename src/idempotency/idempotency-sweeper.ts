import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { IdempotencyService } from './idempotency.service';
import { IdempotentRequestRepository } from './idempotent-request.repository';

const SWEEP_EVERY_MS = 60_000;
const ROWS_PER_SWEEP = 1000;

@Injectable()
export class IdempotencySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly requests: IdempotentRequestRepository,
    private readonly idempotency: IdempotencyService,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async sweep(now = new Date()): Promise<number> {
    try {
      const secrets = await this.idempotency.forgetExpiredSecrets(now, ROWS_PER_SWEEP);
      return secrets + (await this.requests.deleteExpired(now, ROWS_PER_SWEEP));
    } catch (error) {
      this.logger.warn(`Expired idempotent answers not deleted: ${(error as Error).message}`);
      return 0;
    }
  }
}
