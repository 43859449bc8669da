import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The per-client limit on SMS configurations (docs/interface.md: 100) kept by the schema, as on MySQL: a plain INSERT either
 * fits or is refused by the trigger. SQLite runs one writer at a time, so the check and the count need no lock.
 * A new limit needs a new migration.
 */
export class SmsConfigLimitByTrigger1795400000000 implements MigrationInterface {
  name = 'SmsConfigLimitByTrigger1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE client ADD COLUMN sms_config_count INTEGER NOT NULL DEFAULT 0');
    await queryRunner.query('UPDATE client SET sms_config_count = (SELECT COUNT(*) FROM sms_config s WHERE s.client_id = client.id)');
    await queryRunner.query(`
      CREATE TRIGGER sms_config_within_limit BEFORE INSERT ON sms_config
      BEGIN
        SELECT RAISE(ABORT, 'sms_config limit reached') FROM client WHERE id = NEW.client_id AND sms_config_count >= 100;
        UPDATE client SET sms_config_count = sms_config_count + 1 WHERE id = NEW.client_id;
      END`);
    await queryRunner.query(`
      CREATE TRIGGER sms_config_count_on_delete AFTER DELETE ON sms_config
      BEGIN
        UPDATE client SET sms_config_count = sms_config_count - 1 WHERE id = OLD.client_id;
      END`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER sms_config_count_on_delete');
    await queryRunner.query('DROP TRIGGER sms_config_within_limit');
    await queryRunner.query('ALTER TABLE client DROP COLUMN sms_config_count');
  }
}
