import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** Generated: where each audited request came from (address, User-Agent), what an action says beyond `changed` (details), and each key's last address beside its last use; nullable, so the previous release keeps writing both tables (null there). */
export class RequestTrace1798000000011 implements MigrationInterface {
  name = 'RequestTrace1798000000011';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'audit_event', 'source_address', 'varchar(64) NULL');
    await addColumn(queryRunner, 'audit_event', 'user_agent', 'varchar(200) NULL');
    await addColumn(queryRunner, 'audit_event', 'details', 'varchar(1024) NULL');
    await addColumn(queryRunner, 'client', 'secret_key_last_used_from', 'varchar(64) NULL');
    await addColumn(queryRunner, 'client', 'previous_secret_key_last_used_from', 'varchar(64) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `previous_secret_key_last_used_from`');
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `secret_key_last_used_from`');
    await queryRunner.query('ALTER TABLE `audit_event` DROP COLUMN `details`');
    await queryRunner.query('ALTER TABLE `audit_event` DROP COLUMN `user_agent`');
    await queryRunner.query('ALTER TABLE `audit_event` DROP COLUMN `source_address`');
  }
}
