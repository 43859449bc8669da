import { MigrationInterface, QueryRunner } from 'typeorm';

/** Adds the table client_key. Generated from the entities by npm run migration:generate. */
export class ScopedKeys1798000000015 implements MigrationInterface {
  name = 'ScopedKeys1798000000015';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS `client_key` (`id` int NOT NULL AUTO_INCREMENT, `client_id` int NOT NULL, `key_digest` char(64) CHARACTER SET "ascii" NOT NULL, `key_start` varchar(7) CHARACTER SET "ascii" NOT NULL, `name` varchar(100) NOT NULL, `scopes` text NOT NULL, `expires_at` datetime(3) NULL, `allowed_sources` text NULL, `created_at` datetime(3) NOT NULL, `last_used_at` datetime(3) NULL, `last_used_from` varchar(64) NULL, UNIQUE INDEX `UQ_client_key_digest` (`key_digest`), INDEX `IDX_client_key_client` (`client_id`), CONSTRAINT `FK_client_key_client` FOREIGN KEY (`client_id`) REFERENCES `client` (`id`) ON DELETE CASCADE ON UPDATE RESTRICT, PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `client_key`');
  }
}
