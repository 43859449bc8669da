import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** Generated: the admin-set destinations route admits per client, a nullable column the previous release never reads. */
export class AllowedDestinations1798000000008 implements MigrationInterface {
  name = 'AllowedDestinations1798000000008';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'client', 'allowed_destinations', 'text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "client" DROP COLUMN "allowed_destinations"');
  }
}
