import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { AuditLog } from '../audit/audit.repository';
import { EventPublisher } from './event-publisher';
import { OutboxRepository, RELAY_LOCK_BUSY } from './outbox.repository';
import { WakeSignal } from './wake-signal';

/** Entries published per transaction: the confirms of a batch are awaited together. */
export const RELAY_BATCH_SIZE = 200;
/**
 * How often the relay looks without being woken: it is woken after every commit of this instance, so the poll only
 * finds entries left by an instance that died before publishing them, or written while another instance held the lock.
 */
export const RELAY_POLL_MS = 1000;
/** Another relay held the lock: look again soon, in case it took its batch before this instance's commit. */
const LOCK_BUSY_RETRY_MS = 50;
/** How long shutdown waits for a pass under way. */
const RELAY_STOP_WAIT_MS = 2000;
/** After a failure (database or broker), the next attempt. */
const FAILURE_RETRY_MS = 2000;

/**
 * The transactional outbox's relay, one in every instance: it publishes the unpublished audit entries in the order they
 * were written, with publisher confirms, and marks them published in the same transaction as it holds the relay lock.
 * At least once: a batch confirmed but not marked (the database or the process went) is published again, with the same
 * message-id. Only one relay publishes at a time, so each client's events leave in order (see docs/events.md).
 */
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

  /**
   * After the listener closed (onApplicationShutdown, not before): the relay publishes what the last requests wrote
   * through the drain. A pass stuck on an unreachable database is not waited for beyond RELAY_STOP_WAIT_MS, so that
   * shutdown stays bounded; what it leaves waits for another instance or the next start.
   */
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

  /** Publishes batches until none is left; answers how long to wait before looking again. */
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
