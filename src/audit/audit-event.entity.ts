import { Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

// While `unpublished`, also a domain event waiting in the outbox (docs/events.md).
@Entity('audit_event')
@Unique('UQ_audit_event_event_id', ['eventId'])
@Index('IDX_audit_event_client', ['clientId', 'id'])
@Index('IDX_audit_event_action', ['action', 'id'])
@Index('IDX_audit_event_unpublished', ['unpublished', 'id'])
@Index('IDX_audit_event_occurred_at', ['occurredAt'])
export class AuditEvent {
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

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId!: string | null;

  @Column({ name: 'caller_request_id', type: 'varchar', length: 128, nullable: true })
  callerRequestId!: string | null;

  @Column({ name: 'changed', type: 'varchar', length: 1024 })
  changed!: string;

  // Where the request came from: null for `system` and for entries made before the service kept it.
  @Column({ name: 'source_address', type: 'varchar', length: 64, nullable: true })
  sourceAddress!: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 200, nullable: true })
  userAgent!: string | null;

  // JSON: what an action says beyond the names in `changed` (a provider host's name); null when nothing.
  @Column({ name: 'details', type: 'varchar', length: 1024, nullable: true })
  details!: string | null;

  @Column({ name: 'unpublished', type: 'boolean', width: 1, default: false })
  unpublished!: boolean;

  @Column({ name: 'published_at', type: 'datetime', precision: 3, nullable: true })
  publishedAt!: Date | null;
}
