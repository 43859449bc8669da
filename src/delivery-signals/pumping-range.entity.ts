import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Client } from '../client/client.entity';

export const PUMPING_SIGNALS = ['velocity', 'conversion'] as const;
export type PumpingSignal = (typeof PUMPING_SIGNALS)[number];

// One suspicion of SMS pumping on a client's range, from the report that found it until `until` or a lift.
@Entity('pumping_range')
@Index('IDX_pumping_range_client_range', ['clientId', 'range', 'until'])
@Index('IDX_pumping_range_until', ['until'])
export class PumpingRange {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ name: 'client_id', type: 'int' })
  clientId!: number;

  @ManyToOne(() => Client, { onDelete: 'CASCADE', onUpdate: 'RESTRICT' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'FK_pumping_range_client' })
  client?: Client;

  @Column({ name: 'destination_range', type: 'varchar', length: 16, charset: 'ascii' })
  range!: string;

  @Column({ name: 'signals', type: 'simple-json' })
  signals!: PumpingSignal[];

  // The window's sums when the suspicion began.
  @Column({ name: 'sent', type: 'bigint' })
  sent!: string;

  @Column({ name: 'codes_sent', type: 'bigint' })
  codesSent!: string;

  @Column({ name: 'verified', type: 'bigint' })
  verified!: string;

  @Column({ name: 'suspected_at', type: 'datetime', precision: 3 })
  suspectedAt!: Date;

  @Column({ name: 'suspected_until', type: 'datetime', precision: 3 })
  until!: Date;

  @Column({ name: 'lifted_at', type: 'datetime', precision: 3, nullable: true })
  liftedAt!: Date | null;
}
