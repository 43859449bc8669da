import { Column, CreateDateColumn, Entity, Index, OneToMany, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { exactDecimal } from '../database/exact-decimal';
import { SmsConfig } from '../sms-config/sms-config.entity';

export const PUMPING_GUARDS = ['off', 'monitor', 'block'] as const;
export type PumpingGuard = (typeof PUMPING_GUARDS)[number];

@Entity('client')
@Unique('UQ_client_secret_key_digest', ['secretKeyDigest'])
@Index('UQ_client_previous_secret_key_digest', ['previousSecretKeyDigest'], { unique: true })
export class Client {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ name: 'app_name', type: 'varchar', length: 100 })
  appName!: string;

  @Column({ name: 'app_description', type: 'varchar', length: 1000, nullable: true })
  appDescription!: string | null;

  @Column({ name: 'app_url', type: 'varchar', length: 2048 })
  appUrl!: string;

  @Column({ name: 'secret_key_digest', type: 'char', length: 64, charset: 'ascii' })
  secretKeyDigest!: string;

  @Column({ name: 'preferred_sms_gateway', type: 'varchar', length: 100, nullable: true })
  preferredSmsGateway!: string | null;

  @Column({ name: 'preferred_email_gateway', type: 'varchar', length: 100, nullable: true })
  preferredEmailGateway!: string | null;

  @Column({ name: 'preferred_push_notification_gateway', type: 'varchar', length: 100, nullable: true })
  preferredPushNotificationGateway!: string | null;

  @Column({ name: 'is_host', type: 'boolean', width: 1 })
  isHost!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 6 })
  createdAt!: Date;

  // Kept by SmsConfigBudgetRepository under this row's lock: at most 100 configurations per client.
  @Column({ name: 'sms_config_count', type: 'int', default: 0 })
  smsConfigCount!: number;

  @Column({ name: 'is_active', type: 'boolean', width: 1, default: true })
  isActive!: boolean;

  @Column({ name: 'updated_at', type: 'datetime', precision: 6, nullable: true })
  updatedAt!: Date | null;

  @Column({ name: 'secret_key_rotated_at', type: 'datetime', precision: 6, nullable: true })
  secretKeyRotatedAt!: Date | null;

  @Column({ name: 'previous_secret_key_digest', type: 'char', length: 64, charset: 'ascii', nullable: true })
  previousSecretKeyDigest!: string | null;

  @Column({ name: 'previous_key_expires_at', type: 'datetime', precision: 6, nullable: true })
  previousKeyExpiresAt!: Date | null;

  // Written by KeyUsage every KEY_USAGE_FLUSH_MS.
  @Column({ name: 'secret_key_last_used_at', type: 'datetime', precision: 3, nullable: true })
  secretKeyLastUsedAt!: Date | null;

  // A rotation moves the current key's here.
  @Column({ name: 'previous_secret_key_last_used_at', type: 'datetime', precision: 3, nullable: true })
  previousSecretKeyLastUsedAt!: Date | null;

  // The address of the last use beside its time (common/caller-trace.ts), written with it; a rotation moves it likewise.
  @Column({ name: 'secret_key_last_used_from', type: 'varchar', length: 64, nullable: true })
  secretKeyLastUsedFrom!: string | null;

  @Column({ name: 'previous_secret_key_last_used_from', type: 'varchar', length: 64, nullable: true })
  previousSecretKeyLastUsedFrom!: string | null;

  // The digests of the client's scoped keys (client_key), written with them: get-client's read lists every key the
  // client's answer is cached under without a subquery per row (BENCHMARKS.md). Null: none.
  @Column({ name: 'scoped_key_digests', type: 'simple-json', nullable: true })
  scopedKeyDigests!: string[] | null;

  // Null: route admits any destination; else only those these E.164 prefixes start, in the order an admin gave them.
  @Column({ name: 'allowed_destinations', type: 'simple-json', nullable: true })
  allowedDestinations!: string[] | null;

  // Null: no limit. Route skips what would take spentToday or sentToday past them (docs/dispatching.md).
  @Column({ name: 'daily_spend_limit', type: 'decimal', precision: 18, scale: 6, nullable: true, transformer: exactDecimal })
  dailySpendLimit!: number | null;

  // Read alone, as destination_price's twin is: no earlier release writes this column's DECIMAL.
  @Column({ name: 'daily_spend_limit_micros', type: 'bigint', nullable: true })
  dailySpendLimitMicros!: string | null;

  @Column({ name: 'daily_sms_limit', type: 'int', nullable: true })
  dailySmsLimit!: number | null;

  // The UTC day (YYYY-MM-DD) the reports' sums below count; on any other day they count nothing, so no job resets them.
  @Column({ name: 'usage_day', type: 'char', length: 10, charset: 'ascii', nullable: true })
  usageDay!: string | null;

  @Column({ name: 'spent_today', type: 'decimal', precision: 18, scale: 6, default: 0, transformer: exactDecimal })
  spentToday!: number;

  @Column({ name: 'spent_today_micros', type: 'bigint', default: 0 })
  spentTodayMicros!: string;

  @Column({ name: 'sent_today', type: 'bigint', default: 0 })
  sentToday!: string;

  // The UTC day client.daily-limit-reached was last recorded for each limit: once a day each.
  @Column({ name: 'spend_limit_reached_on', type: 'char', length: 10, charset: 'ascii', nullable: true })
  spendLimitReachedOn!: string | null;

  @Column({ name: 'sms_limit_reached_on', type: 'char', length: 10, charset: 'ascii', nullable: true })
  smsLimitReachedOn!: string | null;

  // off: no pumping counts; monitor: suspicions audited and published; block: route also refuses a suspected range.
  @Column({ name: 'pumping_guard', type: 'varchar', length: 7, charset: 'ascii', default: 'monitor' })
  pumpingGuard!: PumpingGuard;

  // false: route refuses premium-rate and shared-cost numbers.
  @Column({ name: 'allow_premium_numbers', type: 'boolean', width: 1, default: false })
  allowPremiumNumbers!: boolean;

  @OneToMany(() => SmsConfig, (smsConfig) => smsConfig.client)
  smsConfigs?: SmsConfig[];
}
