import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn } from './schema-probes';

/** The MySQL migration of the same name, for SQLite: each step looks for what it makes first, so it may run again. */
export class ClientLifecycle1796000000000 implements MigrationInterface {
  name = 'ClientLifecycle1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'client', 'is_active', 'BOOLEAN NOT NULL DEFAULT 1');
    await addColumn(queryRunner, 'client', 'updated_at', 'DATETIME NULL');
    await addColumn(queryRunner, 'client', 'secret_key_rotated_at', 'DATETIME NULL');
    await addColumn(queryRunner, 'client', 'previous_secret_key_digest', 'CHAR(64) NULL');
    await addColumn(queryRunner, 'client', 'previous_key_expires_at', 'DATETIME NULL');
    await queryRunner.query(
      'CREATE UNIQUE INDEX IF NOT EXISTS UQ_client_previous_secret_key_digest ON client (previous_secret_key_digest)',
    );
    await addColumn(queryRunner, 'sms_config', 'updated_at', 'DATETIME NULL');
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS audit_event (
        id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
        event_id CHAR(36) NOT NULL,
        occurred_at DATETIME NOT NULL,
        action VARCHAR(64) NOT NULL,
        actor VARCHAR(64) NOT NULL,
        client_id INTEGER NULL,
        sms_config_id INTEGER NULL,
        request_id VARCHAR(128) NULL,
        changed VARCHAR(1024) NOT NULL,
        CONSTRAINT UQ_audit_event_event_id UNIQUE (event_id)
      )`);
    await queryRunner.query('CREATE INDEX IF NOT EXISTS IDX_audit_event_client ON audit_event (client_id, id)');
    await queryRunner.query('CREATE INDEX IF NOT EXISTS IDX_audit_event_action ON audit_event (action, id)');
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS idempotent_request (
        scope VARCHAR(80) NOT NULL,
        idempotency_key VARCHAR(255) NOT NULL,
        request_digest CHAR(64) NOT NULL,
        claim CHAR(36) NOT NULL,
        claimed_until DATETIME NOT NULL,
        status_code SMALLINT NULL,
        answer_sealed TEXT NULL,
        expires_at DATETIME NOT NULL,
        PRIMARY KEY (scope, idempotency_key)
      )`);
    await queryRunner.query('CREATE INDEX IF NOT EXISTS IDX_idempotent_request_expires_at ON idempotent_request (expires_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS idempotent_request');
    await queryRunner.query('DROP TABLE IF EXISTS audit_event');
    await queryRunner.query('DROP INDEX IF EXISTS UQ_client_previous_secret_key_digest');
    for (const column of ['previous_key_expires_at', 'previous_secret_key_digest', 'secret_key_rotated_at', 'updated_at', 'is_active']) {
      await queryRunner.query(`ALTER TABLE client DROP COLUMN ${column}`);
    }
    await queryRunner.query('ALTER TABLE sms_config DROP COLUMN updated_at');
  }
}
