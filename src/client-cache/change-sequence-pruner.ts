import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ChangeSequenceRepository } from './change-sequence.repository';

// Past this an instance that has not read would rather empty its cache (ChangeSequence) than read on.
export const CHANGE_SEQUENCE_KEPT_MS = 60 * 60_000;
const PRUNE_EVERY_MS = 60_000;
const ROWS_PER_BATCH = 1000;

// As the idempotency sweeper runs: on every instance, a batch at a time, a failure left to the next round.
@Injectable()
export class ChangeSequencePruner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ChangeSequence');
  private timer?: NodeJS.Timeout;

  constructor(private readonly repository: ChangeSequenceRepository) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.prune(), PRUNE_EVERY_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async prune(): Promise<number> {
    let deleted = 0;
    try {
      for (;;) {
        const batch = await this.repository.deleteOlderThan(CHANGE_SEQUENCE_KEPT_MS, ROWS_PER_BATCH);
        deleted += batch;
        if (batch < ROWS_PER_BATCH) break;
      }
    } catch (error) {
      this.logger.warn(`Change sequence lines past an hour not deleted: ${(error as Error).message}`);
    }
    return deleted;
  }
}
