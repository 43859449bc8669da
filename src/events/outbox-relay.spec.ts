import { Logger } from '@nestjs/common';
import { AuditLog } from '../audit/audit.repository';
import { DomainEventDto } from '../audit/dto/audit-event.dto';
import { EntityManager } from 'typeorm';
import { EventPublisher } from './event-publisher';
import { OutboxRelay, RELAY_BATCH_SIZE } from './outbox-relay';
import { OutboxEvent, OutboxRepository, RELAY_LOCK_BUSY } from './outbox.repository';

const event = (position: number): OutboxEvent => ({
  position,
  event: { eventId: `e-${position}`, action: 'client.updated', clientId: 1 } as DomainEventDto,
});

/** An outbox in memory: what waits, what was marked, and whether another relay holds the lock. */
class OutboxDouble {
  waiting: OutboxEvent[] = [];
  marked: number[][] = [];
  lockHeldElsewhere = false;
  failNext?: Error;
  lockAttempts = 0;

  asOnlyRelay = jest.fn(async (work: (manager: EntityManager) => Promise<unknown>) => {
    this.lockAttempts++;
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = undefined;
      throw error;
    }
    if (this.lockHeldElsewhere) return RELAY_LOCK_BUSY;
    return work({} as EntityManager);
  });
  unpublished = jest.fn((_manager: EntityManager, limit: number) => Promise.resolve(this.waiting.slice(0, limit)));
  markPublished = jest.fn((_manager: EntityManager, positions: number[]) => {
    this.marked.push(positions);
    this.waiting = this.waiting.filter(({ position }) => !positions.includes(position));
    return Promise.resolve();
  });
}

class PublisherDouble {
  isReady = true;
  published: string[][] = [];
  failNext?: Error;
  private readyListener = () => undefined as void;
  onReady(listener: () => void) {
    this.readyListener = listener;
  }
  becomeReady() {
    this.isReady = true;
    this.readyListener();
  }
  publish = jest.fn((events: DomainEventDto[]) => {
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = undefined;
      return Promise.reject(error);
    }
    this.published.push(events.map((published) => published.eventId));
    return Promise.resolve();
  });
}

const until = async (condition: () => boolean, timeoutMs = 3000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('OutboxRelay', () => {
  let outbox: OutboxDouble;
  let publisher: PublisherDouble;
  let relay: OutboxRelay;
  let announceCommit: () => void;
  let warn: jest.SpyInstance;
  let log: jest.SpyInstance;

  beforeEach(() => {
    outbox = new OutboxDouble();
    publisher = new PublisherDouble();
    const auditLog = { onEventsCommitted: (listener: () => void) => (announceCommit = listener) } as unknown as AuditLog;
    relay = new OutboxRelay(outbox as unknown as OutboxRepository, publisher as unknown as EventPublisher, auditLog);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    await relay.onApplicationShutdown();
    jest.restoreAllMocks();
  });

  it('should publish what waits in log order, in batches, marking each batch only after the broker confirmed it', async () => {
    outbox.waiting = Array.from({ length: RELAY_BATCH_SIZE + 3 }, (_, index) => event(index + 1));
    relay.onApplicationBootstrap();
    await until(() => outbox.waiting.length === 0);
    expect(publisher.published.map((batch) => batch.length)).toEqual([RELAY_BATCH_SIZE, 3]);
    expect(publisher.published.flat()).toEqual(Array.from({ length: RELAY_BATCH_SIZE + 3 }, (_, index) => `e-${index + 1}`));
    expect(outbox.marked.flat()).toEqual(Array.from({ length: RELAY_BATCH_SIZE + 3 }, (_, index) => index + 1));
    expect(outbox.markPublished.mock.invocationCallOrder[0]).toBeGreaterThan(publisher.publish.mock.invocationCallOrder[0]);
  });

  it('should look again at once when a commit announces new entries, without waiting for the poll', async () => {
    relay.onApplicationBootstrap();
    await until(() => outbox.lockAttempts === 1);
    outbox.waiting = [event(7)];
    const announcedAt = Date.now();
    announceCommit();
    await until(() => publisher.published.length === 1);
    // The poll is a second away: only the announcement explains an answer this soon.
    expect(Date.now() - announcedAt).toBeLessThan(500);
  });

  it('should not mark a batch the broker did not confirm, log once, and publish it on a later attempt', async () => {
    outbox.waiting = [event(1), event(2)];
    publisher.failNext = new Error('timeout');
    relay.onApplicationBootstrap();
    await until(() => publisher.published.length === 1, 5000);
    expect(outbox.marked).toEqual([[1, 2]]);
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      'Domain events wait in the outbox: publishing failed (timeout); retrying every 2 s',
    ]);
    expect(log.mock.calls.map(([message]) => message)).toEqual(['Domain events are published again']);
  });

  it('should leave the outbox alone while the broker is not ready, and publish as soon as it is', async () => {
    publisher.isReady = false;
    outbox.waiting = [event(1)];
    relay.onApplicationBootstrap();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outbox.lockAttempts).toBe(0);
    publisher.becomeReady();
    await until(() => publisher.published.length === 1, 500);
  });

  it('should try again shortly when another instance holds the relay lock, and publish once it is free', async () => {
    outbox.lockHeldElsewhere = true;
    outbox.waiting = [event(1)];
    relay.onApplicationBootstrap();
    await until(() => outbox.lockAttempts >= 3, 1000);
    expect(publisher.published).toEqual([]);
    outbox.lockHeldElsewhere = false;
    await until(() => publisher.published.length === 1, 500);
  });
});
