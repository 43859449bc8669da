import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { IdempotencyService } from './idempotency.service';
import { IdempotentRequestRepository } from './idempotent-request.repository';

const SWEEP_EVERY_MS = 60_000;
const ROWS_PER_SWEEP = 1000;

/**
 * Deletes kept answers once they expire (24 h), a few at a time, so none outlives its day for long; and, every pass, the
 * answers holding a secret key once past their 10 minutes, replaced by the refusal (their rows stay, so a retry is refused, not run again).
 */
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

  /** Answers how many expired answers it deleted. */
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
