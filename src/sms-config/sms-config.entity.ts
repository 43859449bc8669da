import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ClientEntity } from '../client/client.entity';
import { decimalToNumber } from '../database/decimal.transformer';

@Entity('sms_config')
@Index('IDX_sms_config_client_id', ['clientId', 'id'])
export class SmsConfigEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'client_id', type: 'int' })
  clientId: number;

  @ManyToOne(() => ClientEntity, (client) => client.smsConfigs, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'client_id' })
  client?: ClientEntity;

  @Column({ name: 'provider_name', type: 'varchar', length: 100 })
  providerName: string;

  @Column({ name: 'provider_url', type: 'varchar', length: 2048, nullable: true })
  providerUrl: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  username: string | null;

  /** AES-256-GCM, `<keyId>:<sealed>`: see SecretSealer. */
  @Column({ name: 'password_sealed', type: 'text', nullable: true })
  passwordSealed: string | null;

  @Column({ name: 'api_key_sealed', type: 'text', nullable: true })
  apiKeySealed: string | null;

  @Column({ name: 'sender_id', type: 'varchar', length: 20, nullable: true })
  senderId: string | null;

  @Column({ name: 'sms_type', type: 'varchar', length: 50, nullable: true })
  smsType: string | null;

  @Column({ name: 'sms_api', type: 'varchar', length: 2048 })
  smsApi: string;

  @Column({ name: 'balance_url', type: 'varchar', length: 2048, nullable: true })
  balanceUrl: string | null;

  @Column({ type: 'decimal', precision: 18, scale: 6, default: 0, transformer: decimalToNumber })
  balance: number;

  @Column({ name: 'per_sms_cost', type: 'decimal', precision: 18, scale: 6, default: 0, transformer: decimalToNumber })
  perSmsCost: number;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive: boolean;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
