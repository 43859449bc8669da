import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** The MySQL migration of the same name, for SQLite: two added columns and two indexes (generated as copies of the tables). */
export class AuditAndKeptSecrets1798000000006 implements MigrationInterface {
  name = 'AuditAndKeptSecrets1798000000006';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'audit_event', 'caller_request_id', 'varchar(128)');
    await queryRunner.query('CREATE INDEX IF NOT EXISTS "IDX_audit_event_occurred_at" ON "audit_event" ("occurred_at")');
    await addColumn(queryRunner, 'idempotent_request', 'replayable_until', 'datetime');
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS "IDX_idempotent_request_replayable_until" ON "idempotent_request" ("replayable_until")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_idempotent_request_replayable_until"');
    await queryRunner.query('ALTER TABLE "idempotent_request" DROP COLUMN "replayable_until"');
    await queryRunner.query('DROP INDEX "IDX_audit_event_occurred_at"');
    await queryRunner.query('ALTER TABLE "audit_event" DROP COLUMN "caller_request_id"');
  }
}
