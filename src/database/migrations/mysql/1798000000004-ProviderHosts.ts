import { MigrationInterface, QueryRunner } from 'typeorm';
import { approvePresentHosts } from '../approve-present-hosts';

/**
 * The approved provider hosts (route and resolve offer only configurations whose hosts are listed), filled with the hosts
 * the configurations present send to, so that the upgrade changes no honest route. A new table: the previous release
 * never reads it.
 */
export class ProviderHosts1798000000004 implements MigrationInterface {
  name = 'ProviderHosts1798000000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS `provider_host` (`id` int NOT NULL AUTO_INCREMENT, `host` varchar(255) CHARACTER SET "ascii" NOT NULL, `note` varchar(200) NULL, `created_at` datetime(3) NOT NULL, UNIQUE INDEX `UQ_provider_host_host` (`host`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
    await approvePresentHosts(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `provider_host`');
  }
}
