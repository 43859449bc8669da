import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Removes what the first version of 1795400000000 made (two triggers), where they exist, and counts every client's
 * configurations again: from now on SmsConfigRepository keeps the count. Every statement may run again.
 */
export class SmsConfigLimitWithoutTrigger1795600000000 implements MigrationInterface {
  name = 'SmsConfigLimitWithoutTrigger1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER IF EXISTS sms_config_within_limit');
    await queryRunner.query('DROP TRIGGER IF EXISTS sms_config_count_on_delete');
    await queryRunner.query('UPDATE client SET sms_config_count = (SELECT COUNT(*) FROM sms_config s WHERE s.client_id = client.id)');
  }

  /** The triggers are not made again: they need a privilege an application's user does not have. */
  async down(): Promise<void> {}
}
