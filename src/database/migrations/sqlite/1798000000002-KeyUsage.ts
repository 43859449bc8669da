import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** The MySQL migration of the same name, for SQLite: two added columns (generated as TypeORM's copy of the table). */
export class KeyUsage1798000000002 implements MigrationInterface {
  name = 'KeyUsage1798000000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'client', 'secret_key_last_used_at', 'datetime');
    await addColumn(queryRunner, 'client', 'previous_secret_key_last_used_at', 'datetime');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "client" DROP COLUMN "previous_secret_key_last_used_at"');
    await queryRunner.query('ALTER TABLE "client" DROP COLUMN "secret_key_last_used_at"');
  }
}
