import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Once created a stored procedure for adding an SMS configuration within the limit; the next migration replaced it, and
 * the limit is now kept by SmsConfigRepository in a transaction. Kept, doing nothing, so that databases which ran it
 * and databases which did not share one history.
 */
export class CreateSmsConfigAddProcedure1795327283819 implements MigrationInterface {
  name = 'CreateSmsConfigAddProcedure1795327283819';

  async up(): Promise<void> {}

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP PROCEDURE IF EXISTS sms_config_add_within_limit');
  }
}
