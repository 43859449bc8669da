import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** The MySQL migration of the same name, for SQLite: three added columns and an index (generated as a copy of the table). */
export class Dispatch1798000000003 implements MigrationInterface {
  name = 'Dispatch1798000000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'sms_config', 'low_balance_threshold', 'decimal(18,6)');
    await addColumn(queryRunner, 'sms_config', 'consecutive_failures', 'integer NOT NULL DEFAULT (0)');
    await addColumn(queryRunner, 'sms_config', 'unhealthy_until', 'datetime');
    await queryRunner.query('CREATE INDEX IF NOT EXISTS "IDX_sms_config_unhealthy_until" ON "sms_config" ("unhealthy_until")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_sms_config_unhealthy_until"');
    await queryRunner.query('ALTER TABLE "sms_config" DROP COLUMN "unhealthy_until"');
    await queryRunner.query('ALTER TABLE "sms_config" DROP COLUMN "consecutive_failures"');
    await queryRunner.query('ALTER TABLE "sms_config" DROP COLUMN "low_balance_threshold"');
  }
}
