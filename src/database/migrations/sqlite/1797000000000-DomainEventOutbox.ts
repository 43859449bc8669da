import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** The MySQL migration of the same name, for SQLite, where one instance runs: its relay needs no lock row. */
export class DomainEventOutbox1797000000000 implements MigrationInterface {
  name = 'DomainEventOutbox1797000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'audit_event', 'unpublished', 'BOOLEAN NOT NULL DEFAULT 0');
    await addColumn(queryRunner, 'audit_event', 'published_at', 'DATETIME NULL');
    // Partial: the index holds the unpublished entries only.
    await queryRunner.query('CREATE INDEX IF NOT EXISTS IDX_audit_event_unpublished ON audit_event (id) WHERE unpublished = 1');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS IDX_audit_event_unpublished');
    await queryRunner.query('ALTER TABLE audit_event DROP COLUMN published_at');
    await queryRunner.query('ALTER TABLE audit_event DROP COLUMN unpublished');
  }
}
