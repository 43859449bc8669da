import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** The MySQL migration of the same name, for SQLite: an added column (generated as a copy of the table). */
export class AuditHardening1798000000006 implements MigrationInterface {
  name = 'AuditHardening1798000000006';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'audit_event', 'caller_request_id', 'varchar(128)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "audit_event" DROP COLUMN "caller_request_id"');
  }
}
