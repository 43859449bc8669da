import { Injectable } from '@nestjs/common';
import { AUDIT_EVENT_COLUMNS, AuditEventRow, toAuditEvent } from '../audit/audit.repository';
import { AuditEventDto } from '../audit/dto/audit-event.dto';
import { SqlExecutor, SqlStatements } from '../database/sql-executor';
import { epochMsOf, sqlTimestamp } from '../database/timestamps';

/** An entry waiting in the outbox, with its place in the log. */
export interface OutboxEvent {
  position: number;
  event: AuditEventDto;
}

export interface OutboxBacklog {
  unpublished: number;
  /** When the oldest unpublished entry was written (epoch ms); null when none waits. */
  oldestOccurredAt: number | null;
}

/** Another instance's relay holds the lock: it publishes what waits. */
export const RELAY_LOCK_BUSY = Symbol('RELAY_LOCK_BUSY');

/** The audit entries the relay publishes (audit_event.unpublished = 1), read through the index on the unpublished ones. */
@Injectable()
export class OutboxRepository {
  constructor(private readonly sql: SqlExecutor) {}

  /**
   * Runs `work` as the only relay. MySQL: in a transaction holding the lock row, taken with SKIP LOCKED so a relay that
   * finds it held goes away at once (RELAY_LOCK_BUSY) rather than queueing behind it; a relay that dies releases it with
   * its connection. SQLite: one instance runs, so `work` runs at once, outside any transaction (which would hold up
   * every other statement of the instance, SQLite's statements taking turns).
   */
  async asOnlyRelay<T>(work: (statements: SqlStatements) => Promise<T>): Promise<T | typeof RELAY_LOCK_BUSY> {
    if (this.sql.dialect === 'sqlite') return work(this.sql);
    return this.sql.isolatedTransaction(async (statements) => {
      const lock = await statements.query("SELECT name FROM outbox_relay_lock WHERE name = 'relay' FOR UPDATE SKIP LOCKED");
      return lock.length === 0 ? RELAY_LOCK_BUSY : work(statements);
    });
  }

  /** The oldest `limit` unpublished entries, in the order they were written. */
  async unpublished(statements: SqlStatements, limit: number): Promise<OutboxEvent[]> {
    // limit is a constant integer: written into the text, as MySQL prepares LIMIT placeholders only for some types.
    const rows = await statements.query<AuditEventRow>(
      `SELECT ${AUDIT_EVENT_COLUMNS} FROM audit_event WHERE unpublished = 1 ORDER BY id LIMIT ${Math.trunc(limit)}`,
    );
    return rows.map((row) => ({ position: Number(row.position), event: toAuditEvent(row) }));
  }

  async markPublished(statements: SqlStatements, positions: number[]): Promise<void> {
    const placeholders = positions.map(() => '?').join(', ');
    await statements.execute(`UPDATE audit_event SET unpublished = 0, published_at = ? WHERE id IN (${placeholders})`, [
      sqlTimestamp(new Date()),
      ...positions,
    ]);
  }

  async backlog(): Promise<OutboxBacklog> {
    const [count] = await this.sql.query<{ unpublished: number | string }>(
      'SELECT COUNT(*) AS unpublished FROM audit_event WHERE unpublished = 1',
    );
    const [oldest] = await this.sql.query<{ occurredAt: Date | string }>(
      'SELECT occurred_at AS occurredAt FROM audit_event WHERE unpublished = 1 ORDER BY id LIMIT 1',
    );
    return { unpublished: Number(count.unpublished), oldestOccurredAt: oldest ? epochMsOf(oldest.occurredAt) : null };
  }
}
