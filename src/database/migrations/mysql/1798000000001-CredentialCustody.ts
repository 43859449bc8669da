import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/**
 * Custody of provider credentials: a configuration's credential version (a verifyApiKey issued for an earlier one is
 * stale), the encryption key whose subkey made a kept request's digest (null: a plain SHA-256, kept before), and the
 * kept request's SHA-256 sealed (what reseal moves, so the request is still recognised once that key is removed). Each
 * column is nullable or has a default, so the previous release keeps writing rows during a rolling deploy.
 */
export class CredentialCustody1798000000001 implements MigrationInterface {
  name = 'CredentialCustody1798000000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'sms_config', 'credential_version', "int NOT NULL DEFAULT '0'");
    await addColumn(queryRunner, 'idempotent_request', 'request_digest_key_id', 'varchar(32) CHARACTER SET "ascii" NULL');
    await addColumn(queryRunner, 'idempotent_request', 'request_sealed', 'text NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `idempotent_request` DROP COLUMN `request_sealed`');
    await queryRunner.query('ALTER TABLE `idempotent_request` DROP COLUMN `request_digest_key_id`');
    await queryRunner.query('ALTER TABLE `sms_config` DROP COLUMN `credential_version`');
  }
}
