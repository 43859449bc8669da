import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { exactDecimal } from '../database/exact-decimal';
import { ExactTwin, FromRequest, SealedFrom } from './column-roles';

@Entity('sms_config')
@Index('IDX_sms_config_client_id', ['clientId', 'id'])
// A metric counts the few unhealthy configurations at every scrape.
@Index('IDX_sms_config_unhealthy_until', ['unhealthyUntil'])
export class SmsConfig {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ name: 'client_id', type: 'int' })
  clientId!: number;

  // Named, not imported: client/ reads sms-config/, never the other way.
  @ManyToOne('Client', 'smsConfigs', { onDelete: 'CASCADE', onUpdate: 'RESTRICT' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'FK_sms_config_client' })
  client?: object;

  @FromRequest()
  @Column({ name: 'provider_name', type: 'varchar', length: 100 })
  providerName!: string;

  @FromRequest()
  @Column({ name: 'provider_url', type: 'varchar', length: 2048, nullable: true })
  providerUrl!: string | null;

  @FromRequest()
  @Column({ name: 'username', type: 'varchar', length: 255, nullable: true })
  username!: string | null;

  @SealedFrom('password')
  @Column({ name: 'password_sealed', type: 'text', nullable: true })
  passwordSealed!: string | null;

  @SealedFrom('apiKey')
  @Column({ name: 'api_key_sealed', type: 'text', nullable: true })
  apiKeySealed!: string | null;

  @FromRequest()
  @Column({ name: 'sender_id', type: 'varchar', length: 20, nullable: true })
  senderId!: string | null;

  @FromRequest()
  @Column({ name: 'sms_type', type: 'varchar', length: 50, nullable: true })
  smsType!: string | null;

  @FromRequest()
  @Column({ name: 'sms_api', type: 'varchar', length: 2048 })
  smsApi!: string;

  @FromRequest()
  @Column({ name: 'balance_url', type: 'varchar', length: 2048, nullable: true })
  balanceUrl!: string | null;

  @FromRequest()
  @ExactTwin('balanceMicros')
  @Column({ name: 'balance', type: 'decimal', precision: 18, scale: 6, default: 0, transformer: exactDecimal })
  balance!: number;

  @FromRequest()
  @ExactTwin('perSmsCostMicros')
  @Column({ name: 'per_sms_cost', type: 'decimal', precision: 18, scale: 6, default: 0, transformer: exactDecimal })
  perSmsCost!: number;

  @FromRequest()
  @Column({ name: 'is_active', type: 'boolean', width: 1, default: true })
  isActive!: boolean;

  @FromRequest()
  @ExactTwin('lowBalanceThresholdMicros')
  @Column({ name: 'low_balance_threshold', type: 'decimal', precision: 18, scale: 6, nullable: true, transformer: exactDecimal })
  lowBalanceThreshold!: number | null;

  // SQLite stores a DECIMAL as a double; why the twins sit beside the DECIMALs: docs/architecture.md, The data layer.
  @Column({ name: 'balance_micros', type: 'bigint', nullable: true })
  balanceMicros!: string | null;

  @Column({ name: 'per_sms_cost_micros', type: 'bigint', nullable: true })
  perSmsCostMicros!: string | null;

  @Column({ name: 'low_balance_threshold_micros', type: 'bigint', nullable: true })
  lowBalanceThresholdMicros!: string | null;

  @Column({ name: 'consecutive_failures', type: 'int', default: 0 })
  consecutiveFailures!: number;

  @Column({ name: 'unhealthy_until', type: 'datetime', precision: 3, nullable: true })
  unhealthyUntil!: Date | null;

  // A verifyApiKey names the version it was issued for; an earlier one is stale.
  @Column({ name: 'credential_version', type: 'int', default: 0 })
  credentialVersion!: number;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 6 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 6, nullable: true })
  updatedAt!: Date | null;
}
