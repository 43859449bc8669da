import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** When each of a client's keys was last used, as the instances write it (KeyUsage): two nullable columns. */
export class KeyUsage1798000000002 implements MigrationInterface {
  name = 'KeyUsage1798000000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'client', 'secret_key_last_used_at', 'datetime(3) NULL');
    await addColumn(queryRunner, 'client', 'previous_secret_key_last_used_at', 'datetime(3) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `previous_secret_key_last_used_at`');
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `secret_key_last_used_at`');
  }
}
