import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** Delivery signals: receipts per configuration and calling code, the pumping guard's counts, baselines and suspicions, and its two client settings (defaults monitor and false, so the previous release reads rows as before). */
export class DeliverySignals1798000000013 implements MigrationInterface {
  name = 'DeliverySignals1798000000013';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'client', 'pumping_guard', 'varchar(7) CHARACTER SET "ascii" NOT NULL DEFAULT \'monitor\'');
    await addColumn(queryRunner, 'client', 'allow_premium_numbers', 'tinyint(1) NOT NULL DEFAULT 0');
    await queryRunner.query(
      "CREATE TABLE IF NOT EXISTS `delivery_count` (`sms_config_id` int NOT NULL, `calling_code` varchar(3) CHARACTER SET \"ascii\" NOT NULL, `minute` int NOT NULL, `delivered` bigint NOT NULL DEFAULT '0', `undelivered` bigint NOT NULL DEFAULT '0', INDEX `IDX_delivery_count_minute` (`minute`), CONSTRAINT `FK_delivery_count_sms_config` FOREIGN KEY (`sms_config_id`) REFERENCES `sms_config` (`id`) ON DELETE CASCADE ON UPDATE RESTRICT, PRIMARY KEY (`sms_config_id`, `calling_code`, `minute`)) ENGINE=InnoDB",
    );
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS `pumping_baseline` (`client_id` int NOT NULL, `day` char(10) CHARACTER SET "ascii" NOT NULL, `highest_sent` bigint NOT NULL, INDEX `IDX_pumping_baseline_day` (`day`), CONSTRAINT `FK_pumping_baseline_client` FOREIGN KEY (`client_id`) REFERENCES `client` (`id`) ON DELETE CASCADE ON UPDATE RESTRICT, PRIMARY KEY (`client_id`, `day`)) ENGINE=InnoDB',
    );
    await queryRunner.query(
      "CREATE TABLE IF NOT EXISTS `pumping_count` (`client_id` int NOT NULL, `destination_range` varchar(16) CHARACTER SET \"ascii\" NOT NULL, `minute` int NOT NULL, `sent` bigint NOT NULL DEFAULT '0', `codes_sent` bigint NOT NULL DEFAULT '0', `verified` bigint NOT NULL DEFAULT '0', INDEX `IDX_pumping_count_minute` (`minute`), CONSTRAINT `FK_pumping_count_client` FOREIGN KEY (`client_id`) REFERENCES `client` (`id`) ON DELETE CASCADE ON UPDATE RESTRICT, PRIMARY KEY (`client_id`, `destination_range`, `minute`)) ENGINE=InnoDB",
    );
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS `pumping_range` (`id` int NOT NULL AUTO_INCREMENT, `client_id` int NOT NULL, `destination_range` varchar(16) CHARACTER SET "ascii" NOT NULL, `signals` text NOT NULL, `sent` bigint NOT NULL, `codes_sent` bigint NOT NULL, `verified` bigint NOT NULL, `suspected_at` datetime(3) NOT NULL, `suspected_until` datetime(3) NOT NULL, `lifted_at` datetime(3) NULL, INDEX `IDX_pumping_range_until` (`suspected_until`), INDEX `IDX_pumping_range_client_range` (`client_id`, `destination_range`, `suspected_until`), CONSTRAINT `FK_pumping_range_client` FOREIGN KEY (`client_id`) REFERENCES `client` (`id`) ON DELETE CASCADE ON UPDATE RESTRICT, PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `pumping_range`');
    await queryRunner.query('DROP TABLE `pumping_count`');
    await queryRunner.query('DROP TABLE `pumping_baseline`');
    await queryRunner.query('DROP TABLE `delivery_count`');
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `allow_premium_numbers`');
    await queryRunner.query('ALTER TABLE `client` DROP COLUMN `pumping_guard`');
  }
}
