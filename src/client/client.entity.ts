import { Column, CreateDateColumn, Entity, Index, OneToMany, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { SmsConfig } from '../sms-config/sms-config.entity';

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

  // Kept by SmsConfigRepository under this row's lock: at most 100 configurations per client.
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

  // Null: route admits any destination; else only those these E.164 prefixes start, in the order an admin gave them.
  @Column({ name: 'allowed_destinations', type: 'simple-json', nullable: true })
  allowedDestinations!: string[] | null;

  @OneToMany(() => SmsConfig, (smsConfig) => smsConfig.client)
  smsConfigs?: SmsConfig[];
}
