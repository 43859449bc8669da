import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** The MySQL migration of the same name, for SQLite: three added columns (generated as a copy of the table), filled. */
export class ExactAmounts1798000000005 implements MigrationInterface {
  name = 'ExactAmounts1798000000005';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'sms_config', 'balance_micros', 'bigint');
    await addColumn(queryRunner, 'sms_config', 'per_sms_cost_micros', 'bigint');
    await addColumn(queryRunner, 'sms_config', 'low_balance_threshold_micros', 'bigint');
    // The DECIMAL columns hold doubles here: the nearest millionth of each, which is what was stored.
    await queryRunner.query(
      'UPDATE "sms_config" SET "balance_micros" = CAST(ROUND("balance" * 1000000) AS INTEGER), ' +
        '"per_sms_cost_micros" = CAST(ROUND("per_sms_cost" * 1000000) AS INTEGER), ' +
        '"low_balance_threshold_micros" = CAST(ROUND("low_balance_threshold" * 1000000) AS INTEGER) WHERE "balance_micros" IS NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "sms_config" DROP COLUMN "low_balance_threshold_micros"');
    await queryRunner.query('ALTER TABLE "sms_config" DROP COLUMN "per_sms_cost_micros"');
    await queryRunner.query('ALTER TABLE "sms_config" DROP COLUMN "balance_micros"');
  }
}
