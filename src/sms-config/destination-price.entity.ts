import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { exactDecimal } from '../database/exact-decimal';
import { SmsConfig } from './sms-config.entity';

// One row per entry of a configuration's destinationPrices; route reads only the rows of the destination's prefixes.
@Entity('destination_price')
@Index('IDX_destination_price_client_prefix', ['clientId', 'prefix'])
export class DestinationPrice {
  @PrimaryColumn({ name: 'sms_config_id', type: 'int' })
  smsConfigId!: number;

  @PrimaryColumn({ name: 'prefix', type: 'varchar', length: 7, charset: 'ascii' })
  prefix!: string;

  @ManyToOne(() => SmsConfig, { onDelete: 'CASCADE', onUpdate: 'RESTRICT' })
  @JoinColumn({ name: 'sms_config_id', foreignKeyConstraintName: 'FK_destination_price_sms_config' })
  smsConfig?: SmsConfig;

  // The configuration's client, so that a destination's prices for all its configurations are one index range per prefix.
  @Column({ name: 'client_id', type: 'int' })
  clientId!: number;

  // The entries are shown in the order given.
  @Column({ name: 'position', type: 'smallint' })
  position!: number;

  @Column({ name: 'per_sms_cost', type: 'decimal', precision: 18, scale: 6, transformer: exactDecimal })
  perSmsCost!: number;

  // What the service reads: SQLite keeps the DECIMAL as a double (docs/architecture.md, The data layer).
  @Column({ name: 'per_sms_cost_micros', type: 'bigint' })
  perSmsCostMicros!: string;
}
