import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/**
 * The amounts' exact twins: BIGINT millionths beside balance, per_sms_cost and low_balance_threshold, filled from them.
 * SQLite stores a DECIMAL as a double; the twins keep every DECIMAL(18,6) on both databases. Nullable: the previous
 * release keeps writing the DECIMAL columns alone during a rolling deploy, and those rows are read from them. The
 * DECIMAL columns are dropped by a later release, once no release reads them.
 */
export class ExactAmounts1798000000005 implements MigrationInterface {
  name = 'ExactAmounts1798000000005';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'sms_config', 'balance_micros', 'bigint NULL');
    await addColumn(queryRunner, 'sms_config', 'per_sms_cost_micros', 'bigint NULL');
    await addColumn(queryRunner, 'sms_config', 'low_balance_threshold_micros', 'bigint NULL');
    // DECIMAL(18,6) × 10^6 is exact; only rows not filled yet, so that it may run again.
    await queryRunner.query(
      'UPDATE `sms_config` SET `balance_micros` = CAST(`balance` * 1000000 AS SIGNED), ' +
        '`per_sms_cost_micros` = CAST(`per_sms_cost` * 1000000 AS SIGNED), ' +
        '`low_balance_threshold_micros` = CAST(`low_balance_threshold` * 1000000 AS SIGNED) WHERE `balance_micros` IS NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `sms_config` DROP COLUMN `low_balance_threshold_micros`');
    await queryRunner.query('ALTER TABLE `sms_config` DROP COLUMN `per_sms_cost_micros`');
    await queryRunner.query('ALTER TABLE `sms_config` DROP COLUMN `balance_micros`');
  }
}
