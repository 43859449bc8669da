import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** Generated: per client, the daily limits admins set and the sums reports keep for the UTC day; nullable or defaulted, unread by the previous release. */
export class DailyLimits1798000000009 implements MigrationInterface {
  name = 'DailyLimits1798000000009';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'client', 'daily_spend_limit', 'decimal(18,6) NULL');
    await addColumn(queryRunner, 'client', 'daily_spend_limit_micros', 'bigint NULL');
    await addColumn(queryRunner, 'client', 'daily_sms_limit', 'int NULL');
    await addColumn(queryRunner, 'client', 'usage_day', 'char(10) CHARACTER SET "ascii" NULL');
    await addColumn(queryRunner, 'client', 'spent_today', "decimal(18,6) NOT NULL DEFAULT '0.000000'");
    await addColumn(queryRunner, 'client', 'spent_today_micros', "bigint NOT NULL DEFAULT '0'");
    await addColumn(queryRunner, 'client', 'sent_today', "bigint NOT NULL DEFAULT '0'");
    await addColumn(queryRunner, 'client', 'spend_limit_reached_on', 'char(10) CHARACTER SET "ascii" NULL');
    await addColumn(queryRunner, 'client', 'sms_limit_reached_on', 'char(10) CHARACTER SET "ascii" NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `sms_limit_reached_on`');
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `spend_limit_reached_on`');
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `sent_today`');
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `spent_today_micros`');
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `spent_today`');
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `usage_day`');
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `daily_sms_limit`');
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `daily_spend_limit_micros`');
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `daily_spend_limit`');
  }
}
