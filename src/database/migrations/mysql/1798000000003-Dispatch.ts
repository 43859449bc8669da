import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn, indexExists } from './schema-probes';

/**
 * Dispatch: a configuration's low-balance threshold (null: none) and its health (failures in a row, and until when it
 * is skipped; null: healthy), with an index to count the few not healthy. Each column is nullable or has a default, so
 * the previous release keeps writing rows during a rolling deploy.
 */
export class Dispatch1798000000003 implements MigrationInterface {
  name = 'Dispatch1798000000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'sms_config', 'low_balance_threshold', 'decimal(18,6) NULL');
    await addColumn(queryRunner, 'sms_config', 'consecutive_failures', "int NOT NULL DEFAULT '0'");
    await addColumn(queryRunner, 'sms_config', 'unhealthy_until', 'datetime(3) NULL');
    if (!(await indexExists(queryRunner, 'sms_config', 'IDX_sms_config_unhealthy_until'))) {
      await queryRunner.query('CREATE INDEX `IDX_sms_config_unhealthy_until` ON `sms_config` (`unhealthy_until`)');
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `IDX_sms_config_unhealthy_until` ON `sms_config`');
    await queryRunner.query('ALTER TABLE `sms_config` DROP COLUMN `unhealthy_until`');
    await queryRunner.query('ALTER TABLE `sms_config` DROP COLUMN `consecutive_failures`');
    await queryRunner.query('ALTER TABLE `sms_config` DROP COLUMN `low_balance_threshold`');
  }
}
