import { MigrationInterface, QueryRunner } from 'typeorm';
import { storeDeploymentIdentity } from '../store-deployment-identity';

/** The MySQL migration of the same name, for SQLite: the change sequence, its index, and the deployment's identity. */
export class ChangeSequence1798000000010 implements MigrationInterface {
  name = 'ChangeSequence1798000000010';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "change_sequence" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "line" varchar(80) NOT NULL, "origin" char(16) NOT NULL, "created_at" datetime NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX IF NOT EXISTS "IDX_change_sequence_created_at" ON "change_sequence" ("created_at")');
    await queryRunner.query('CREATE TABLE IF NOT EXISTS "deployment" ("id" char(32) PRIMARY KEY NOT NULL)');
    // Added by hand: the identity drawn at random, once.
    await storeDeploymentIdentity(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "deployment"');
    await queryRunner.query('DROP INDEX "IDX_change_sequence_created_at"');
    await queryRunner.query('DROP TABLE "change_sequence"');
  }
}
