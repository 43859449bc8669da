import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { AuditLog } from '../audit/audit.repository';
import { EventPublisher } from './event-publisher';
import { OutboxRepository, RELAY_LOCK_BUSY } from './outbox.repository';
import { WakeSignal } from './wake-signal';

export const RELAY_BATCH_SIZE = 200;
// Woken after each local commit, the relay polls only for what a dead instance, or one holding the lock, left.
export const RELAY_POLL_MS = 1000;
// Soon: the relay holding the lock may have taken its batch before this instance's commit.
const LOCK_BUSY_RETRY_MS = 50;
const RELAY_STOP_WAIT_MS = 2000;
const FAILURE_RETRY_MS = 2000;

@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private readonly wakeUp = new WakeSignal();
  private running?: Promise<void>;
  private stopping = false;
  private failing = false;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly publisher: EventPublisher,
    auditLog: AuditLog,
  ) {
    auditLog.onEventsCommitted(() => this.wakeUp.wake());
    publisher.onReady(() => this.wakeUp.wake());
  }

  onApplicationBootstrap(): void {
    // Started here, outside any request: the relay's transactions are its own.
    this.running = this.run();
  }

  // After the listener closed, so the drain's writes are published; bounded, should a pass hang on the database.
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.wakeUp.wake();
    await Promise.race([this.running, sleep(RELAY_STOP_WAIT_MS, undefined, { ref: false })]);
  }

  private async run(): Promise<void> {
    let nextWait = 0;
    while (!this.stopping) {
      await this.wakeUp.wait(nextWait);
      if (this.stopping) return;
      nextWait = await this.publishWaiting();
    }
  }

  private async publishWaiting(): Promise<number> {
    // Woken again by the publisher once it is ready; the entries wait in the database meanwhile.
    if (!this.publisher.isReady) return RELAY_POLL_MS;
    try {
      while (!this.stopping) {
        const published = await this.outbox.asOnlyRelay(async (manager) => {
          const waiting = await this.outbox.unpublished(manager, RELAY_BATCH_SIZE);
          if (waiting.length === 0) return 0;
          await this.publisher.publish(waiting.map(({ event }) => event));
          await this.outbox.markPublished(
            manager,
            waiting.map(({ position }) => position),
          );
          return waiting.length;
        });
        if (published === RELAY_LOCK_BUSY) return LOCK_BUSY_RETRY_MS;
        this.recovered();
        if (published < RELAY_BATCH_SIZE) return RELAY_POLL_MS;
      }
    } catch (error) {
      this.failed(error);
      return FAILURE_RETRY_MS;
    }
    return RELAY_POLL_MS;
  }

  private failed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    this.logger.warn(`Domain events wait in the outbox: publishing failed (${reason}); retrying every ${FAILURE_RETRY_MS / 1000} s`);
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.log('Domain events are published again');
  }
}
