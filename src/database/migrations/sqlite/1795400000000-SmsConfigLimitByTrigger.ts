import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each client counts its SMS configurations in `client.sms_config_count`, which SmsConfigRepository keeps inside the
 * add's transaction (docs/interface.md: at most 100). As on MySQL, this migration first did it with triggers and now
 * adds the column only (1795600000000 removes the triggers where they were made); the name stays, databases record it.
 */
export class SmsConfigLimitByTrigger1795400000000 implements MigrationInterface {
  name = 'SmsConfigLimitByTrigger1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (!(await queryRunner.hasColumn('client', 'sms_config_count'))) {
      await queryRunner.query('ALTER TABLE client ADD COLUMN sms_config_count INTEGER NOT NULL DEFAULT 0');
    }
    await queryRunner.query('UPDATE client SET sms_config_count = (SELECT COUNT(*) FROM sms_config s WHERE s.client_id = client.id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (await queryRunner.hasColumn('client', 'sms_config_count'))
      await queryRunner.query('ALTER TABLE client DROP COLUMN sms_config_count');
  }
}
