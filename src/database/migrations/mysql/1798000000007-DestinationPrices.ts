import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The prices of a configuration per destination prefix (destinationPrices), one row per entry, removed with their
 * configuration. A new table: the previous release never reads it.
 */
export class DestinationPrices1798000000007 implements MigrationInterface {
  name = 'DestinationPrices1798000000007';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS `destination_price` (`sms_config_id` int NOT NULL, `prefix` varchar(7) CHARACTER SET "ascii" NOT NULL, `client_id` int NOT NULL, `position` smallint NOT NULL, `per_sms_cost` decimal(18,6) NOT NULL, `per_sms_cost_micros` bigint NOT NULL, INDEX `IDX_destination_price_client_prefix` (`client_id`, `prefix`), CONSTRAINT `FK_destination_price_sms_config` FOREIGN KEY (`sms_config_id`) REFERENCES `sms_config` (`id`) ON DELETE CASCADE ON UPDATE RESTRICT, PRIMARY KEY (`sms_config_id`, `prefix`)) ENGINE=InnoDB',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `destination_price`');
  }
}
