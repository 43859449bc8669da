import { Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** One entry of the audit log, and, while `unpublished`, a domain event waiting in the outbox (src/events). */
@Entity('audit_event')
@Unique('UQ_audit_event_event_id', ['eventId'])
@Index('IDX_audit_event_client', ['clientId', 'id'])
@Index('IDX_audit_event_action', ['action', 'id'])
@Index('IDX_audit_event_unpublished', ['unpublished', 'id'])
@Index('IDX_audit_event_occurred_at', ['occurredAt'])
export class AuditEvent {
  /** The entry's place in the log: the order it is listed and published in. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: number;

  @Column({ name: 'event_id', type: 'char', length: 36, charset: 'ascii' })
  eventId!: string;

  @Column({ name: 'occurred_at', type: 'datetime', precision: 3 })
  occurredAt!: Date;

  @Column({ name: 'action', type: 'varchar', length: 64, charset: 'ascii' })
  action!: string;

  @Column({ name: 'actor', type: 'varchar', length: 64, charset: 'ascii' })
  actor!: string;

  @Column({ name: 'client_id', type: 'int', nullable: true })
  clientId!: number | null;

  @Column({ name: 'sms_config_id', type: 'int', nullable: true })
  smsConfigId!: number | null;

  /** The service's own id for the request that made the change (the answer's x-request-id). */
  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId!: string | null;

  /** The caller's x-request-id, kept beside the service's id; never taken for it. */
  @Column({ name: 'caller_request_id', type: 'varchar', length: 128, nullable: true })
  callerRequestId!: string | null;

  /** The names of the fields changed, as a JSON array: never a value. */
  @Column({ name: 'changed', type: 'varchar', length: 1024 })
  changed!: string;

  @Column({ name: 'unpublished', type: 'boolean', width: 1, default: false })
  unpublished!: boolean;

  @Column({ name: 'published_at', type: 'datetime', precision: 3, nullable: true })
  publishedAt!: Date | null;
}
