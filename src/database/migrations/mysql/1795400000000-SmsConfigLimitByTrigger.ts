import { MigrationInterface, QueryRunner } from 'typeorm';
import { CreateSmsConfigAddProcedure1795327283819 } from './1795327283819-CreateSmsConfigAddProcedure';

/**
 * The per-client limit on SMS configurations (docs/interface.md: 100) kept by the schema: a plain INSERT either fits or is
 * refused by the trigger, in one round trip and one statement. The trigger counts in `client.sms_config_count`, under
 * the client row's lock, so concurrent adds for one client are counted one after another and adds for different
 * clients do not wait on each other. It replaces the stored procedure, which cost MariaDB twice the CPU of the insert.
 * A new limit needs a new migration. MySQL refuses a statement that reads `client` while the trigger updates it:
 * SMS configurations are inserted with VALUES, never INSERT ... SELECT FROM client.
 */
export class SmsConfigLimitByTrigger1795400000000 implements MigrationInterface {
  name = 'SmsConfigLimitByTrigger1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE client ADD COLUMN sms_config_count INT NOT NULL DEFAULT 0');
    await queryRunner.query('UPDATE client c SET sms_config_count = (SELECT COUNT(*) FROM sms_config s WHERE s.client_id = c.id)');
    // A missing client is left to the foreign key, which names it: only a full client is refused here.
    await queryRunner.query(`
      CREATE TRIGGER sms_config_within_limit BEFORE INSERT ON sms_config FOR EACH ROW
      BEGIN
        UPDATE client SET sms_config_count = sms_config_count + 1 WHERE id = NEW.client_id AND sms_config_count < 100;
        IF ROW_COUNT() = 0 AND EXISTS (SELECT 1 FROM client WHERE id = NEW.client_id) THEN
          SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'sms_config limit reached';
        END IF;
      END`);
    // Cascaded deletes (a client's own deletion) fire no trigger, and take the counter with the row.
    await queryRunner.query(`
      CREATE TRIGGER sms_config_count_on_delete AFTER DELETE ON sms_config FOR EACH ROW
        UPDATE client SET sms_config_count = sms_config_count - 1 WHERE id = OLD.client_id`);
    await queryRunner.query('DROP PROCEDURE IF EXISTS sms_config_add_within_limit');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER sms_config_count_on_delete');
    await queryRunner.query('DROP TRIGGER sms_config_within_limit');
    await queryRunner.query('ALTER TABLE client DROP COLUMN sms_config_count');
    // The procedure comes back with the migration before this one, should it be reverted too.
    await new CreateSmsConfigAddProcedure1795327283819().up(queryRunner);
  }
}
