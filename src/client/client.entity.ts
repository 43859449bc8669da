import { Column, CreateDateColumn, Entity, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import { SmsConfigEntity } from '../sms-config/sms-config.entity';

@Entity('client')
export class ClientEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'app_name', type: 'varchar', length: 100 })
  appName: string;

  @Column({ name: 'app_description', type: 'varchar', length: 1000, nullable: true })
  appDescription: string | null;

  @Column({ name: 'app_url', type: 'varchar', length: 2048 })
  appUrl: string;

  /** SHA-256 of the secret key, hex: the key itself is never stored. */
  @Column({ name: 'secret_key_digest', type: 'varchar', length: 64, unique: true })
  secretKeyDigest: string;

  @Column({ name: 'preferred_sms_gateway', type: 'varchar', length: 100, nullable: true })
  preferredSmsGateway: string | null;

  @Column({ name: 'preferred_email_gateway', type: 'varchar', length: 100, nullable: true })
  preferredEmailGateway: string | null;

  @Column({ name: 'preferred_push_notification_gateway', type: 'varchar', length: 100, nullable: true })
  preferredPushNotificationGateway: string | null;

  @Column({ name: 'is_host', type: 'boolean' })
  isHost: boolean;

  /** Kept by the schema's triggers, which refuse an SMS configuration past the limit (MAX_SMS_CONFIGS_PER_CLIENT). */
  @Column({ name: 'sms_config_count', type: 'int', default: 0 })
  smsConfigCount: number;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;

  @OneToMany(() => SmsConfigEntity, (smsConfig) => smsConfig.client)
  smsConfigs?: SmsConfigEntity[];
}
