import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** Adds client.scoped_key_digests (nullable simple-json). Generated from the entities by npm run migration:generate. */
export class ScopedKeyDigests1798000000016 implements MigrationInterface {
  name = 'ScopedKeyDigests1798000000016';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'client', 'scoped_key_digests', 'text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "client" DROP COLUMN "scoped_key_digests"');
  }
}
