import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Page, pageOf } from '../common/pagination/page';
import { SqlDialect, SqlExecutor, SqlStatement, SqlValue } from '../database/sql-executor';
import { isoTimestampOf, sqlTimestamp } from '../database/timestamps';
import { AuditAction, AuditEntry, JUST_INSERTED, isPublished } from './audit-entry';
import { AuditEventDto } from './dto/audit-event.dto';

const COLUMNS = 'event_id, occurred_at, action, actor, client_id, sms_config_id, request_id, changed, unpublished';

/** The columns of an entry, as AuditEventRow names them, for the queries that read entries (this log, the relay). */
export const AUDIT_EVENT_COLUMNS = `id AS position, event_id AS eventId, occurred_at AS occurredAt, action, actor,
  client_id AS clientId, sms_config_id AS smsConfigId, request_id AS requestId, changed`;

/** The id the statement before inserted, in each dialect. */
const LAST_INSERT_ID: Record<SqlDialect, string> = { mysql: 'LAST_INSERT_ID()', sqlite: 'last_insert_rowid()' };
/** Whether the statement before changed a row: an entry is written only for a change that happened. */
const PREVIOUS_CHANGED: Record<SqlDialect, string> = { mysql: 'FROM DUAL WHERE ROW_COUNT() = 1', sqlite: 'WHERE changes() = 1' };

export interface AuditEventRow {
  eventId: string;
  occurredAt: Date | string;
  action: AuditAction;
  actor: string;
  clientId: number | null;
  smsConfigId: number | null;
  requestId: string | null;
  changed: string;
  position: number;
}

export interface AuditFilter {
  clientId?: number;
  action?: AuditAction;
}

/**
 * The audit log: written in the transaction of the change it records, read newest first. An entry that is also a domain
 * event is the outbox row the relay publishes (src/events); listeners hear when such entries are committed.
 */
@Injectable()
export class AuditLog {
  private readonly committedListeners: Array<() => void> = [];
  private readonly announceCommitted = () => this.committedListeners.forEach((listener) => listener());

  constructor(private readonly sql: SqlExecutor) {}

  /** Called after the commit of every transaction that wrote entries to publish (or, should it have written none, harmlessly). */
  onEventsCommitted(listener: () => void): void {
    this.committedListeners.push(listener);
  }

  /** Records the entry with the statements issued alongside it (inside a transaction, as part of it). */
  async record(entry: AuditEntry): Promise<void> {
    const { sql, values, afterCommit } = this.statement(entry);
    await this.sql.execute(sql, values);
    if (afterCommit) this.sql.afterCommit(afterCommit);
  }

  /**
   * The INSERT of an entry, for a script (SqlExecutor.script): JUST_INSERTED ids come from the statement before, and the
   * entry is written only if that statement changed a row.
   */
  statement(entry: AuditEntry): SqlStatement {
    const dialect = this.sql.dialect;
    const values: SqlValue[] = [randomUUID(), sqlTimestamp(new Date()), entry.action, entry.origin.actor];
    const placeholders = ['?', '?', '?', '?'];
    for (const id of [entry.clientId, entry.smsConfigId ?? null]) {
      if (id === JUST_INSERTED) {
        placeholders.push(LAST_INSERT_ID[dialect]);
      } else {
        placeholders.push('?');
        values.push(id as number | null);
      }
    }
    const published = isPublished(entry.action);
    values.push(entry.origin.requestId, JSON.stringify(entry.changed ?? []), published ? 1 : 0);
    placeholders.push('?', '?', '?');
    const afterInsert = [entry.clientId, entry.smsConfigId].includes(JUST_INSERTED);
    const sql = afterInsert
      ? `INSERT INTO audit_event (${COLUMNS}) SELECT ${placeholders.join(', ')} ${PREVIOUS_CHANGED[dialect]}`
      : `INSERT INTO audit_event (${COLUMNS}) VALUES (${placeholders.join(', ')})`;
    return published ? { sql, values, afterCommit: this.announceCommitted } : { sql, values };
  }

  /** A page of entries, newest first. */
  async list(filter: AuditFilter, limit: number, before: number | undefined): Promise<Page<AuditEventDto>> {
    const conditions: string[] = [];
    const values: SqlValue[] = [];
    const filters: Array<[string, SqlValue | undefined]> = [
      ['id < ?', before],
      ['client_id = ?', filter.clientId],
      ['action = ?', filter.action],
    ];
    for (const [condition, value] of filters) {
      if (value === undefined) continue;
      conditions.push(condition);
      values.push(value);
    }
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    // limit is a checked integer: written into the text, as MySQL prepares LIMIT placeholders only for some types.
    const rows = await this.sql.query<AuditEventRow>(
      `SELECT ${AUDIT_EVENT_COLUMNS} FROM audit_event ${where} ORDER BY id DESC LIMIT ${Math.trunc(limit) + 1}`,
      values,
    );
    const page = pageOf(rows, limit, (row) => Number(row.position));
    return { items: page.items.map(toAuditEvent), nextCursor: page.nextCursor };
  }
}

export function toAuditEvent(row: AuditEventRow): AuditEventDto {
  return {
    eventId: row.eventId,
    occurredAt: isoTimestampOf(row.occurredAt)!,
    action: row.action,
    actor: row.actor,
    clientId: row.clientId === null ? null : Number(row.clientId),
    smsConfigId: row.smsConfigId === null ? null : Number(row.smsConfigId),
    requestId: row.requestId,
    changed: JSON.parse(row.changed) as string[],
  };
}
