import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditEvent } from '../audit/audit-event.entity';
import { DomainEventDto, toDomainEvent } from '../audit/dto/audit-event.dto';
import { Transactions } from '../database/transactions';
import { OutboxRelayLock } from './outbox-relay-lock.entity';

export interface OutboxEvent {
  position: number;
  event: DomainEventDto;
}

export interface OutboxBacklog {
  unpublished: number;
  oldestOccurredAt: number | null;
}

// Written out, not bound: SQLite uses its partial index only for this very condition.
const UNPUBLISHED = 'e.unpublished = 1';

export const RELAY_LOCK_BUSY = Symbol('RELAY_LOCK_BUSY');

@Injectable()
export class OutboxRepository {
  constructor(private readonly transactions: Transactions) {}

  // SKIP LOCKED: a relay that finds the lock held goes away at once instead of queueing. SQLite runs one instance, and a
  // transaction there would hold up every other statement.
  async asOnlyRelay<T>(work: (manager: EntityManager) => Promise<T>): Promise<T | typeof RELAY_LOCK_BUSY> {
    if (this.transactions.dialect === 'sqlite') return work(this.transactions.manager);
    return this.transactions.isolated(async (manager) => {
      const lock = await manager
        .getRepository(OutboxRelayLock)
        .createQueryBuilder('l')
        .where('l.name = :name', { name: 'relay' })
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getRawMany();
      return lock.length === 0 ? RELAY_LOCK_BUSY : work(manager);
    });
  }

  async unpublished(manager: EntityManager, limit: number): Promise<OutboxEvent[]> {
    const events = await manager
      .getRepository(AuditEvent)
      .createQueryBuilder('e')
      .where(UNPUBLISHED)
      .orderBy('e.id')
      .limit(limit)
      .getMany();
    return events.map((event) => ({ position: Number(event.id), event: toDomainEvent(event) }));
  }

  async markPublished(manager: EntityManager, positions: number[]): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(AuditEvent)
      .set({ unpublished: false, publishedAt: new Date() })
      .where('id IN (:...positions)', { positions })
      .updateEntity(false)
      .execute();
  }

  async backlog(): Promise<OutboxBacklog> {
    const events = this.transactions.manager.getRepository(AuditEvent);
    const unpublished = await events.createQueryBuilder('e').where(UNPUBLISHED).getCount();
    const oldest = await events.createQueryBuilder('e').select('e.occurredAt').where(UNPUBLISHED).orderBy('e.id').limit(1).getOne();
    return { unpublished, oldestOccurredAt: oldest ? oldest.occurredAt.getTime() : null };
  }
}
