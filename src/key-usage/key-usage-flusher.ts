import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../config/app-config';
import { KeyUsageNotes } from './key-usage-notes';
import { KeyUsageRepository } from './key-usage.repository';
import { keyUsageFlushFailures, keyUsageFlushSeconds, pendingNotesSources } from './key-usage.metrics';

@Injectable()
export class KeyUsageFlusher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('KeyUsage');
  private readonly intervalMs: number;
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly notes: KeyUsageNotes,
    private readonly repository: KeyUsageRepository,
    config: ConfigService<AppConfig, true>,
  ) {
    this.intervalMs = config.get('keyUsageFlushMs', { infer: true });
  }

  onApplicationBootstrap(): void {
    pendingNotesSources.add(this.notes);
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    pendingNotesSources.delete(this.notes);
  }

  // Never rejects: a failed write puts its notes back for the next flush.
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeNotes());
    return this.flushing;
  }

  private async writeNotes(): Promise<void> {
    if (this.notes.size === 0) return;
    const taken = this.notes.take();
    const stopTimer = keyUsageFlushSeconds.startTimer();
    try {
      await this.repository.recordLastUses(taken);
    } catch (error) {
      this.notes.putBack(taken);
      keyUsageFlushFailures.inc();
      // The driver's code only: a message may quote the statement, whose values are key digests.
      const reason = (error as { code?: string }).code ?? (error as Error).name;
      this.logger.warn(`Key usage not written, kept for the next flush (${taken.size} keys): ${reason}`);
    } finally {
      stopTimer();
    }
  }
}
