import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each client counts its SMS configurations in `client.sms_config_count`, which SmsConfigRepository keeps under the
 * client row's lock (docs/interface.md: at most 100). This migration first did it with triggers, which a MySQL with
 * binary logging refuses to a user without SUPER; it now adds the column only (1795600000000 removes the triggers where
 * they were made). The name stays: databases record it. Each step checks what exists, so it can run again after a failure.
 */
export class SmsConfigLimitByTrigger1795400000000 implements MigrationInterface {
  name = 'SmsConfigLimitByTrigger1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (!(await queryRunner.hasColumn('client', 'sms_config_count'))) {
      await queryRunner.query('ALTER TABLE client ADD COLUMN sms_config_count INT NOT NULL DEFAULT 0');
    }
    await queryRunner.query('UPDATE client c SET sms_config_count = (SELECT COUNT(*) FROM sms_config s WHERE s.client_id = c.id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (await queryRunner.hasColumn('client', 'sms_config_count'))
      await queryRunner.query('ALTER TABLE client DROP COLUMN sms_config_count');
  }
}
