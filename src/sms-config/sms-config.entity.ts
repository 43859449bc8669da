import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { exactDecimal } from '../database/exact-decimal';

/** How a client sends SMS through one provider: its password and apiKey only sealed (SecretSealer), never in plaintext. */
@Entity('sms_config')
@Index('IDX_sms_config_client_id', ['clientId', 'id'])
// The few configurations not healthy, counted for a metric at every scrape.
@Index('IDX_sms_config_unhealthy_until', ['unhealthyUntil'])
export class SmsConfig {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ name: 'client_id', type: 'int' })
  clientId!: number;

  /** Named, not imported: client/ reads sms-config/, never the other way. */
  @ManyToOne('Client', 'smsConfigs', { onDelete: 'CASCADE', onUpdate: 'RESTRICT' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'FK_sms_config_client' })
  client?: object;

  @Column({ name: 'provider_name', type: 'varchar', length: 100 })
  providerName!: string;

  @Column({ name: 'provider_url', type: 'varchar', length: 2048, nullable: true })
  providerUrl!: string | null;

  @Column({ name: 'username', type: 'varchar', length: 255, nullable: true })
  username!: string | null;

  @Column({ name: 'password_sealed', type: 'text', nullable: true })
  passwordSealed!: string | null;

  @Column({ name: 'api_key_sealed', type: 'text', nullable: true })
  apiKeySealed!: string | null;

  @Column({ name: 'sender_id', type: 'varchar', length: 20, nullable: true })
  senderId!: string | null;

  @Column({ name: 'sms_type', type: 'varchar', length: 50, nullable: true })
  smsType!: string | null;

  @Column({ name: 'sms_api', type: 'varchar', length: 2048 })
  smsApi!: string;

  @Column({ name: 'balance_url', type: 'varchar', length: 2048, nullable: true })
  balanceUrl!: string | null;

  @Column({ name: 'balance', type: 'decimal', precision: 18, scale: 6, default: 0, transformer: exactDecimal })
  balance!: number;

  @Column({ name: 'per_sms_cost', type: 'decimal', precision: 18, scale: 6, default: 0, transformer: exactDecimal })
  perSmsCost!: number;

  @Column({ name: 'is_active', type: 'boolean', width: 1, default: true })
  isActive!: boolean;

  /** Below it, a dispatch report that takes the balance under it publishes sms-config.balance-low; null: no threshold. */
  @Column({ name: 'low_balance_threshold', type: 'decimal', precision: 18, scale: 6, nullable: true, transformer: exactDecimal })
  lowBalanceThreshold!: number | null;

  /**
   * The amounts' exact twins, in millionths: SQLite stores a DECIMAL as a double, which cannot hold every DECIMAL(18,6).
   * Written with their DECIMAL columns, which the previous release reads; null in rows it wrote (storedMicros).
   */
  @Column({ name: 'balance_micros', type: 'bigint', nullable: true })
  balanceMicros!: string | null;

  @Column({ name: 'per_sms_cost_micros', type: 'bigint', nullable: true })
  perSmsCostMicros!: string | null;

  @Column({ name: 'low_balance_threshold_micros', type: 'bigint', nullable: true })
  lowBalanceThresholdMicros!: string | null;

  /** Failed dispatch reports since the last send: at 5, the configuration turns unhealthy. */
  @Column({ name: 'consecutive_failures', type: 'int', default: 0 })
  consecutiveFailures!: number;

  /**
   * Null while healthy. Set when it turns unhealthy: dispatch routing skips it until then, and offers it last after,
   * until a report with a send makes it healthy again.
   */
  @Column({ name: 'unhealthy_until', type: 'datetime', precision: 3, nullable: true })
  unhealthyUntil!: Date | null;

  /**
   * Goes up with every change of where the credentials are sent (smsApi, providerUrl, balanceUrl, username) or of the
   * credentials themselves: a verifyApiKey names the version it was issued for, and an earlier one is stale.
   */
  @Column({ name: 'credential_version', type: 'int', default: 0 })
  credentialVersion!: number;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 6 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 6, nullable: true })
  updatedAt!: Date | null;
}
