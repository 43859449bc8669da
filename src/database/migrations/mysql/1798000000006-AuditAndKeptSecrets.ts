import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn, indexExists } from './schema-probes';

/**
 * From the security review: an audit entry keeps the caller's x-request-id beside the service's own request id (null:
 * none), and an index on occurred_at lets the retention find the oldest entries; a kept idempotent answer holding a new secret key is replayed until replayable_until only (null: for as long
 * as the row is kept), indexed for the sweeper that deletes those answers. Nullable, so the previous release keeps
 * writing both tables during a rolling deploy.
 */
export class AuditAndKeptSecrets1798000000006 implements MigrationInterface {
  name = 'AuditAndKeptSecrets1798000000006';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'audit_event', 'caller_request_id', 'varchar(128) NULL');
    if (!(await indexExists(queryRunner, 'audit_event', 'IDX_audit_event_occurred_at'))) {
      await queryRunner.query('CREATE INDEX `IDX_audit_event_occurred_at` ON `audit_event` (`occurred_at`)');
    }
    await addColumn(queryRunner, 'idempotent_request', 'replayable_until', 'datetime(3) NULL');
    if (!(await indexExists(queryRunner, 'idempotent_request', 'IDX_idempotent_request_replayable_until'))) {
      await queryRunner.query('CREATE INDEX `IDX_idempotent_request_replayable_until` ON `idempotent_request` (`replayable_until`)');
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `IDX_idempotent_request_replayable_until` ON `idempotent_request`');
    await queryRunner.query('ALTER TABLE `idempotent_request` DROP COLUMN `replayable_until`');
    await queryRunner.query('DROP INDEX `IDX_audit_event_occurred_at` ON `audit_event`');
    await queryRunner.query('ALTER TABLE `audit_event` DROP COLUMN `caller_request_id`');
  }
}
