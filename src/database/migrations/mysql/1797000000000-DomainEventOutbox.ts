import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn, indexExists } from './schema-probes';

/**
 * The audit log becomes the outbox of the domain events: an entry to publish is written with `unpublished = 1` in its
 * change's transaction, and the relay sets it to 0 once the broker confirmed it. The index on (unpublished, id) keeps the
 * relay's scan to the unpublished entries, in order, however many published ones the log keeps. One row of
 * outbox_relay_lock is the lock one relay at a time holds (FOR UPDATE SKIP LOCKED), which keeps each client's events in
 * order. Entries written before this migration are not published. Each step may run again (see ClientLifecycle).
 */
export class DomainEventOutbox1797000000000 implements MigrationInterface {
  name = 'DomainEventOutbox1797000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'audit_event', 'unpublished', 'TINYINT(1) NOT NULL DEFAULT 0');
    await addColumn(queryRunner, 'audit_event', 'published_at', 'DATETIME(3) NULL');
    if (!(await indexExists(queryRunner, 'audit_event', 'IDX_audit_event_unpublished'))) {
      await queryRunner.query('ALTER TABLE audit_event ADD KEY IDX_audit_event_unpublished (unpublished, id)');
    }
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS outbox_relay_lock (
        name VARCHAR(32) CHARACTER SET ascii NOT NULL PRIMARY KEY
      ) ENGINE=InnoDB`);
    await queryRunner.query("INSERT IGNORE INTO outbox_relay_lock (name) VALUES ('relay')");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS outbox_relay_lock');
    await queryRunner.query(
      'ALTER TABLE audit_event DROP INDEX IDX_audit_event_unpublished, DROP COLUMN published_at, DROP COLUMN unpublished',
    );
  }
}
