import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SmsConfig } from '../sms-config/sms-config.entity';

// Receipts per configuration, destination calling code and UTC minute: a delivery rate sums the window's rows.
@Entity('delivery_count')
@Index('IDX_delivery_count_minute', ['minute'])
export class DeliveryCount {
  @PrimaryColumn({ name: 'sms_config_id', type: 'int' })
  smsConfigId!: number;

  @PrimaryColumn({ name: 'calling_code', type: 'varchar', length: 3, charset: 'ascii' })
  callingCode!: string;

  // Minutes since the epoch (UTC): the bucket's start is minute × 60000.
  @PrimaryColumn({ name: 'minute', type: 'int' })
  minute!: number;

  @ManyToOne(() => SmsConfig, { onDelete: 'CASCADE', onUpdate: 'RESTRICT' })
  @JoinColumn({ name: 'sms_config_id', foreignKeyConstraintName: 'FK_delivery_count_sms_config' })
  smsConfig?: SmsConfig;

  @Column({ name: 'delivered', type: 'bigint', default: 0 })
  delivered!: string;

  @Column({ name: 'undelivered', type: 'bigint', default: 0 })
  undelivered!: string;
}
