import { Entity, PrimaryColumn } from 'typeorm';

/**
 * The one row ('relay') a relay holds while it publishes, so one relay at a time keeps each client's events in order.
 * MySQL only (one SQLite instance runs one relay), so the schema builder leaves it alone: its migration is hand-written.
 */
@Entity({ name: 'outbox_relay_lock', synchronize: false })
export class OutboxRelayLock {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 32, charset: 'ascii' })
  name!: string;
}
