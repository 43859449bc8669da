import { MigrationInterface, QueryRunner } from 'typeorm';
import { approvePresentHosts } from '../approve-present-hosts';

/** The MySQL migration of the same name, for SQLite: the table, and the hosts present approved. */
export class ProviderHosts1798000000004 implements MigrationInterface {
  name = 'ProviderHosts1798000000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "provider_host" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "host" varchar(255) NOT NULL, "note" varchar(200), "created_at" datetime NOT NULL, CONSTRAINT "UQ_provider_host_host" UNIQUE ("host"))',
    );
    await approvePresentHosts(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "provider_host"');
  }
}
