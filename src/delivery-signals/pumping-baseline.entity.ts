import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Client } from '../client/client.entity';

// The highest window sum any of a client's ranges reached on one UTC day: velocity compares with the 7 days before today.
@Entity('pumping_baseline')
@Index('IDX_pumping_baseline_day', ['day'])
export class PumpingBaseline {
  @PrimaryColumn({ name: 'client_id', type: 'int' })
  clientId!: number;

  @PrimaryColumn({ name: 'day', type: 'char', length: 10, charset: 'ascii' })
  day!: string;

  @ManyToOne(() => Client, { onDelete: 'CASCADE', onUpdate: 'RESTRICT' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'FK_pumping_baseline_client' })
  client?: Client;

  @Column({ name: 'highest_sent', type: 'bigint' })
  highestSent!: string;
}
