import { MigrationInterface, QueryRunner } from 'typeorm';
import { storeDeploymentIdentity } from '../store-deployment-identity';

/**
 * The change sequence every instance reads beside the invalidation bus (one row per line a change publishes, pruned
 * after an hour), and the deployment's identity the bus's messages carry. New tables: the previous release never
 * reads them.
 */
export class ChangeSequence1798000000010 implements MigrationInterface {
  name = 'ChangeSequence1798000000010';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS `change_sequence` (`id` bigint NOT NULL AUTO_INCREMENT, `line` varchar(80) CHARACTER SET "ascii" NOT NULL, `origin` char(16) CHARACTER SET "ascii" NOT NULL, `created_at` datetime(3) NOT NULL, INDEX `IDX_change_sequence_created_at` (`created_at`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS `deployment` (`id` char(32) CHARACTER SET "ascii" NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
    // Added by hand: the identity drawn at random, once.
    await storeDeploymentIdentity(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `deployment`');
    await queryRunner.query('DROP TABLE `change_sequence`');
  }
}
