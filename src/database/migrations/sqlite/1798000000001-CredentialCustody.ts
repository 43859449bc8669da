import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/**
 * The MySQL migration of the same name, for SQLite: three added columns. Generated as TypeORM's copy of both tables;
 * ADD COLUMN is what it amounts to, without rewriting the tables.
 */
export class CredentialCustody1798000000001 implements MigrationInterface {
  name = 'CredentialCustody1798000000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'sms_config', 'credential_version', 'integer NOT NULL DEFAULT (0)');
    await addColumn(queryRunner, 'idempotent_request', 'request_digest_key_id', 'varchar(32)');
    await addColumn(queryRunner, 'idempotent_request', 'request_sealed', 'text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "idempotent_request" DROP COLUMN "request_sealed"');
    await queryRunner.query('ALTER TABLE "idempotent_request" DROP COLUMN "request_digest_key_id"');
    await queryRunner.query('ALTER TABLE "sms_config" DROP COLUMN "credential_version"');
  }
}
