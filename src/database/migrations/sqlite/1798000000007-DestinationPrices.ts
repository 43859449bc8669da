import { MigrationInterface, QueryRunner } from 'typeorm';

/** The MySQL migration of the same name, for SQLite: the table of prices per destination prefix and its index. */
export class DestinationPrices1798000000007 implements MigrationInterface {
  name = 'DestinationPrices1798000000007';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "destination_price" ("sms_config_id" integer NOT NULL, "prefix" varchar(7) NOT NULL, "client_id" integer NOT NULL, "position" smallint NOT NULL, "per_sms_cost" decimal(18,6) NOT NULL, "per_sms_cost_micros" bigint NOT NULL, CONSTRAINT "FK_destination_price_sms_config" FOREIGN KEY ("sms_config_id") REFERENCES "sms_config" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("sms_config_id", "prefix"))',
    );
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS "IDX_destination_price_client_prefix" ON "destination_price" ("client_id", "prefix")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_destination_price_client_prefix"');
    await queryRunner.query('DROP TABLE "destination_price"');
  }
}
