import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/**
 * The security review's audit changes: an audit entry keeps the caller's x-request-id beside the service's own request
 * id (null: none). Nullable, so the previous release keeps writing entries during a rolling deploy.
 */
export class AuditHardening1798000000006 implements MigrationInterface {
  name = 'AuditHardening1798000000006';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'audit_event', 'caller_request_id', 'varchar(128) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `audit_event` DROP COLUMN `caller_request_id`');
  }
}
