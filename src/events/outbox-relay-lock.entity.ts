import { Entity, PrimaryColumn } from 'typeorm';

// MySQL only (one SQLite instance runs one relay): the schema builder leaves it alone, its migration is hand-written.
@Entity({ name: 'outbox_relay_lock', synchronize: false })
export class OutboxRelayLock {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 32, charset: 'ascii' })
  name!: string;
}
