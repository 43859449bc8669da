import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Page, pageOf } from '../common/pagination/page';
import { SqlNames } from '../database/sql-names';
import { Transactions, ScriptStatement, SqlValue } from '../database/transactions';
import { sqlTimestamp } from '../database/timestamps';
import { AuditAction, AuditEntry, JUST_INSERTED, isPublished } from './audit-entry';
import { AuditEvent } from './audit-event.entity';

export interface AuditFilter {
  clientId?: number;
  action?: AuditAction;
}

// In the order statement() pushes the values.
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
  'sourceAddress',
  'userAgent',
  'details',
  'unpublished',
] as const satisfies ReadonlyArray<keyof AuditEvent>;

@Injectable()
export class AuditLog {
  private readonly committedListeners: Array<() => void> = [];
  private readonly announceCommitted = () => this.committedListeners.forEach((listener) => listener());
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

  onEventsCommitted(listener: () => void): void {
    this.committedListeners.push(listener);
  }

  // Raw SQL: every resolution writes one, and the builder's INSERT costs twice the CPU (docs/architecture.md).
  async record(entry: AuditEntry): Promise<void> {
    const { sql, values, afterCommit } = this.statement(entry);
    await this.transactions.sql(sql, values);
    if (afterCommit) this.transactions.afterCommit(afterCommit);
  }

  // In a script, the entry is written only if the statement before it changed a row.
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
    const { requestId, callerRequestId, sourceAddress, userAgent } = entry.origin;
    const details = entry.details ? JSON.stringify(entry.details) : null;
    values.push(requestId, callerRequestId, JSON.stringify(entry.changed ?? []), sourceAddress, userAgent, details, published ? 1 : 0);
    placeholders.push('?', '?', '?', '?', '?', '?', '?');
    const afterInsert = [entry.clientId, entry.smsConfigId].includes(JUST_INSERTED);
    const sql = afterInsert
      ? `${this.insert} SELECT ${placeholders.join(', ')} ${this.previousChanged}`
      : `${this.insert} VALUES (${placeholders.join(', ')})`;
    return published ? { sql, values, afterCommit: this.announceCommitted } : { sql, values };
  }

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

  async list(filter: AuditFilter, limit: number, before: number | undefined): Promise<Page<AuditEvent>> {
    const query = this.transactions.manager.getRepository(AuditEvent).createQueryBuilder('e');
    if (before !== undefined) query.andWhere('e.id < :before', { before });
    if (filter.clientId !== undefined) query.andWhere('e.clientId = :clientId', { clientId: filter.clientId });
    if (filter.action !== undefined) query.andWhere('e.action = :action', { action: filter.action });
    const events = await query
      .orderBy('e.id', 'DESC')
      .limit(limit + 1)
      .getMany();
    return pageOf(events, limit, (event) => Number(event.id));
  }
}
