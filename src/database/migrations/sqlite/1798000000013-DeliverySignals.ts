import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** Delivery signals: receipts per configuration and calling code, the pumping guard's counts, baselines and suspicions, and its two client settings (defaults monitor and false, so the previous release reads rows as before). */
export class DeliverySignals1798000000013 implements MigrationInterface {
  name = 'DeliverySignals1798000000013';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'client', 'pumping_guard', "varchar(7) NOT NULL DEFAULT ('monitor')");
    await addColumn(queryRunner, 'client', 'allow_premium_numbers', 'boolean NOT NULL DEFAULT (0)');
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "delivery_count" ("sms_config_id" integer NOT NULL, "calling_code" varchar(3) NOT NULL, "minute" integer NOT NULL, "delivered" bigint NOT NULL DEFAULT (0), "undelivered" bigint NOT NULL DEFAULT (0), CONSTRAINT "FK_delivery_count_sms_config" FOREIGN KEY ("sms_config_id") REFERENCES "sms_config" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("sms_config_id", "calling_code", "minute"))',
    );
    await queryRunner.query('CREATE INDEX IF NOT EXISTS "IDX_delivery_count_minute" ON "delivery_count" ("minute")');
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "pumping_baseline" ("client_id" integer NOT NULL, "day" char(10) NOT NULL, "highest_sent" bigint NOT NULL, CONSTRAINT "FK_pumping_baseline_client" FOREIGN KEY ("client_id") REFERENCES "client" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("client_id", "day"))',
    );
    await queryRunner.query('CREATE INDEX IF NOT EXISTS "IDX_pumping_baseline_day" ON "pumping_baseline" ("day")');
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "pumping_count" ("client_id" integer NOT NULL, "destination_range" varchar(16) NOT NULL, "minute" integer NOT NULL, "sent" bigint NOT NULL DEFAULT (0), "codes_sent" bigint NOT NULL DEFAULT (0), "verified" bigint NOT NULL DEFAULT (0), CONSTRAINT "FK_pumping_count_client" FOREIGN KEY ("client_id") REFERENCES "client" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("client_id", "destination_range", "minute"))',
    );
    await queryRunner.query('CREATE INDEX IF NOT EXISTS "IDX_pumping_count_minute" ON "pumping_count" ("minute")');
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "pumping_range" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "client_id" integer NOT NULL, "destination_range" varchar(16) NOT NULL, "signals" text NOT NULL, "sent" bigint NOT NULL, "codes_sent" bigint NOT NULL, "verified" bigint NOT NULL, "suspected_at" datetime NOT NULL, "suspected_until" datetime NOT NULL, "lifted_at" datetime, CONSTRAINT "FK_pumping_range_client" FOREIGN KEY ("client_id") REFERENCES "client" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
    );
    await queryRunner.query('CREATE INDEX IF NOT EXISTS "IDX_pumping_range_until" ON "pumping_range" ("suspected_until")');
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS "IDX_pumping_range_client_range" ON "pumping_range" ("client_id", "destination_range", "suspected_until")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_pumping_range_client_range"');
    await queryRunner.query('DROP INDEX "IDX_pumping_range_until"');
    await queryRunner.query('DROP TABLE "pumping_range"');
    await queryRunner.query('DROP INDEX "IDX_pumping_count_minute"');
    await queryRunner.query('DROP TABLE "pumping_count"');
    await queryRunner.query('DROP INDEX "IDX_pumping_baseline_day"');
    await queryRunner.query('DROP TABLE "pumping_baseline"');
    await queryRunner.query('DROP INDEX "IDX_delivery_count_minute"');
    await queryRunner.query('DROP TABLE "delivery_count"');
    await queryRunner.query('ALTER TABLE "client" DROP COLUMN "allow_premium_numbers"');
    await queryRunner.query('ALTER TABLE "client" DROP COLUMN "pumping_guard"');
  }
}
