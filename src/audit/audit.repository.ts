import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Page, pageOf } from '../common/pagination/page';
import { SqlNames } from '../database/sql-names';
import { Transactions } from '../database/transactions';
import { ScriptStatement, SqlValue } from '../database/write-scripts';
import { sqlTimestamp } from '../database/timestamps';
import { AuditAction, AuditEntry, JUST_INSERTED, isPublished } from './audit-entry';
import { AuditEvent } from './audit-event.entity';
import { AuditEventDto } from './dto/audit-event.dto';

export interface AuditFilter {
  clientId?: number;
  action?: AuditAction;
}

/** The columns an entry is written with, in the order of its values. */
const ENTRY_COLUMNS = [
  'eventId',
  'occurredAt',
  'action',
  'actor',
  'clientId',
  'smsConfigId',
  'requestId',
  'callerRequestId',
  'changed',
  'unpublished',
] as const satisfies ReadonlyArray<keyof AuditEvent>;

/**
 * The audit log: written in the transaction of the change it records, read newest first. An entry that is also a domain
 * event is the outbox row the relay publishes (src/events); listeners hear when such entries are committed.
 */
@Injectable()
export class AuditLog {
  private readonly committedListeners: Array<() => void> = [];
  private readonly announceCommitted = () => this.committedListeners.forEach((listener) => listener());
  /** The INSERT of an entry, and the INSERT ... SELECT of a script's entry, which the query builder cannot write. */
  private readonly insert: string;
  private readonly lastInsertId: string;
  private readonly previousChanged: string;

  constructor(
    private readonly transactions: Transactions,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const names = new SqlNames(dataSource, AuditEvent);
    this.insert = `INSERT INTO ${names.table} (${names.columns(ENTRY_COLUMNS)})`;
    const mysql = transactions.dialect === 'mysql';
    this.lastInsertId = mysql ? 'LAST_INSERT_ID()' : 'last_insert_rowid()';
    this.previousChanged = mysql ? 'FROM DUAL WHERE ROW_COUNT() = 1' : 'WHERE changes() = 1';
  }

  /** Called after the commit of every transaction that wrote entries to publish (or, should it have written none, harmlessly). */
  onEventsCommitted(listener: () => void): void {
    this.committedListeners.push(listener);
  }

  /**
   * Records the entry, inside the current transaction as part of it. SQL, not the query builder: every resolution
   * writes one, and the builder's INSERT costs the process twice the CPU (docs/architecture.md).
   */
  async record(entry: AuditEntry): Promise<void> {
    const { sql, values, afterCommit } = this.statement(entry);
    await this.transactions.sql(sql, values);
    if (afterCommit) this.transactions.afterCommit(afterCommit);
  }

  /**
   * The INSERT of an entry, alone or in a script (WriteScripts). In a script, JUST_INSERTED ids come from the statement
   * before, and the entry is written only if that statement changed a row.
   */
  statement(entry: AuditEntry): ScriptStatement {
    const values: SqlValue[] = [randomUUID(), sqlTimestamp(new Date()), entry.action, entry.origin.actor];
    const placeholders = ['?', '?', '?', '?'];
    for (const id of [entry.clientId, entry.smsConfigId ?? null]) {
      if (id === JUST_INSERTED) {
        placeholders.push(this.lastInsertId);
      } else {
        placeholders.push('?');
        values.push(id as number | null);
      }
    }
    const published = isPublished(entry.action);
    values.push(entry.origin.requestId, entry.origin.callerRequestId, JSON.stringify(entry.changed ?? []), published ? 1 : 0);
    placeholders.push('?', '?', '?', '?');
    const afterInsert = [entry.clientId, entry.smsConfigId].includes(JUST_INSERTED);
    const sql = afterInsert
      ? `${this.insert} SELECT ${placeholders.join(', ')} ${this.previousChanged}`
      : `${this.insert} VALUES (${placeholders.join(', ')})`;
    return published ? { sql, values, afterCommit: this.announceCommitted } : { sql, values };
  }

  /**
   * Deletes up to `limit` entries written before `before`, oldest first, never one still unpublished (a domain event
   * waiting in the outbox); answers how many. Read through the index on occurred_at, then deleted by id.
   */
  async deleteBefore(manager: EntityManager, before: Date, limit: number): Promise<number> {
    const old = await manager
      .getRepository(AuditEvent)
      .createQueryBuilder('e')
      .select('e.id', 'id')
      .where('e.occurredAt < :before', { before: sqlTimestamp(before) })
      .andWhere('e.unpublished = 0')
      .orderBy('e.occurredAt')
      .limit(limit)
      .getRawMany<{ id: number | string }>();
    if (old.length === 0) return 0;
    const { affected } = await manager
      .createQueryBuilder()
      .delete()
      .from(AuditEvent)
      .where('id IN (:...ids)', { ids: old.map(({ id }) => id) })
      .andWhere('unpublished = 0')
      .execute();
    return affected ?? old.length;
  }

  /** A page of entries, newest first. */
  async list(filter: AuditFilter, limit: number, before: number | undefined): Promise<Page<AuditEventDto>> {
    const query = this.transactions.manager.getRepository(AuditEvent).createQueryBuilder('e');
    if (before !== undefined) query.andWhere('e.id < :before', { before });
    if (filter.clientId !== undefined) query.andWhere('e.clientId = :clientId', { clientId: filter.clientId });
    if (filter.action !== undefined) query.andWhere('e.action = :action', { action: filter.action });
    const events = await query
      .orderBy('e.id', 'DESC')
      .limit(limit + 1)
      .getMany();
    const page = pageOf(events, limit, (event) => Number(event.id));
    return { items: page.items.map(toAuditEvent), nextCursor: page.nextCursor };
  }
}

export function toAuditEvent(event: AuditEvent): AuditEventDto {
  return {
    eventId: event.eventId,
    occurredAt: event.occurredAt.toISOString(),
    action: event.action as AuditAction,
    actor: event.actor,
    clientId: event.clientId,
    smsConfigId: event.smsConfigId,
    requestId: event.requestId,
    callerRequestId: event.callerRequestId,
    changed: JSON.parse(event.changed) as string[],
  };
}
