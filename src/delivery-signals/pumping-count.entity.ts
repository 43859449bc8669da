import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Client } from '../client/client.entity';

// What a client's reports sent to one range in one UTC minute: the pumping guard sums the window's rows.
@Entity('pumping_count')
@Index('IDX_pumping_count_minute', ['minute'])
export class PumpingCount {
  @PrimaryColumn({ name: 'client_id', type: 'int' })
  clientId!: number;

  // The destination with its last 4 digits as xxxx.
  @PrimaryColumn({ name: 'destination_range', type: 'varchar', length: 16, charset: 'ascii' })
  range!: string;

  // Minutes since the epoch (UTC).
  @PrimaryColumn({ name: 'minute', type: 'int' })
  minute!: number;

  @ManyToOne(() => Client, { onDelete: 'CASCADE', onUpdate: 'RESTRICT' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'FK_pumping_count_client' })
  client?: Client;

  @Column({ name: 'sent', type: 'bigint', default: 0 })
  sent!: string;

  @Column({ name: 'codes_sent', type: 'bigint', default: 0 })
  codesSent!: string;

  @Column({ name: 'verified', type: 'bigint', default: 0 })
  verified!: string;
}
