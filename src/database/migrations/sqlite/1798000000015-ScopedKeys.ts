import { MigrationInterface, QueryRunner } from 'typeorm';

/** Adds the table client_key. Generated from the entities by npm run migration:generate. */
export class ScopedKeys1798000000015 implements MigrationInterface {
  name = 'ScopedKeys1798000000015';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "client_key" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "client_id" integer NOT NULL, "key_digest" char(64) NOT NULL, "key_start" varchar(7) NOT NULL, "name" varchar(100) NOT NULL, "scopes" text NOT NULL, "expires_at" datetime, "allowed_sources" text, "created_at" datetime NOT NULL, "last_used_at" datetime, "last_used_from" varchar(64), CONSTRAINT "FK_client_key_client" FOREIGN KEY ("client_id") REFERENCES "client" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
    );
    await queryRunner.query('CREATE UNIQUE INDEX IF NOT EXISTS "UQ_client_key_digest" ON "client_key" ("key_digest")');
    await queryRunner.query('CREATE INDEX IF NOT EXISTS "IDX_client_key_client" ON "client_key" ("client_id")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_client_key_client"');
    await queryRunner.query('DROP INDEX "UQ_client_key_digest"');
    await queryRunner.query('DROP TABLE "client_key"');
  }
}
