import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumn, indexExists } from './schema-probes';

/**
 * What the lifecycle needs: a client can be disabled and rotate its key (one previous key with an expiry), changes carry
 * their time, every change leaves an audit entry, and retried requests find their first answer. Each step looks for what
 * it makes first, so it may run again after failing at any statement (MySQL commits DDL one statement at a time).
 */
export class ClientLifecycle1796000000000 implements MigrationInterface {
  name = 'ClientLifecycle1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumn(queryRunner, 'client', 'is_active', 'TINYINT(1) NOT NULL DEFAULT 1');
    await addColumn(queryRunner, 'client', 'updated_at', 'DATETIME(6) NULL');
    await addColumn(queryRunner, 'client', 'secret_key_rotated_at', 'DATETIME(6) NULL');
    await addColumn(queryRunner, 'client', 'previous_secret_key_digest', 'CHAR(64) CHARACTER SET ascii NULL');
    await addColumn(queryRunner, 'client', 'previous_key_expires_at', 'DATETIME(6) NULL');
    if (!(await indexExists(queryRunner, 'client', 'UQ_client_previous_secret_key_digest'))) {
      await queryRunner.query('ALTER TABLE client ADD UNIQUE KEY UQ_client_previous_secret_key_digest (previous_secret_key_digest)');
    }
    await addColumn(queryRunner, 'sms_config', 'updated_at', 'DATETIME(6) NULL');
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS audit_event (
        id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
        event_id CHAR(36) CHARACTER SET ascii NOT NULL,
        occurred_at DATETIME(3) NOT NULL,
        action VARCHAR(64) CHARACTER SET ascii NOT NULL,
        actor VARCHAR(64) CHARACTER SET ascii NOT NULL,
        client_id INT NULL,
        sms_config_id INT NULL,
        request_id VARCHAR(128) NULL,
        changed VARCHAR(1024) NOT NULL,
        UNIQUE KEY UQ_audit_event_event_id (event_id),
        KEY IDX_audit_event_client (client_id, id),
        KEY IDX_audit_event_action (action, id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS idempotent_request (
        scope VARCHAR(80) CHARACTER SET ascii NOT NULL,
        idempotency_key VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        request_digest CHAR(64) CHARACTER SET ascii NOT NULL,
        claim CHAR(36) CHARACTER SET ascii NOT NULL,
        claimed_until DATETIME(3) NOT NULL,
        status_code SMALLINT NULL,
        answer_sealed MEDIUMTEXT NULL,
        expires_at DATETIME(3) NOT NULL,
        PRIMARY KEY (scope, idempotency_key),
        KEY IDX_idempotent_request_expires_at (expires_at)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS idempotent_request');
    await queryRunner.query('DROP TABLE IF EXISTS audit_event');
    await queryRunner.query('ALTER TABLE sms_config DROP COLUMN updated_at');
    await queryRunner.query(
      'ALTER TABLE client DROP INDEX UQ_client_previous_secret_key_digest, DROP COLUMN previous_key_expires_at, ' +
        'DROP COLUMN previous_secret_key_digest, DROP COLUMN secret_key_rotated_at, DROP COLUMN updated_at, DROP COLUMN is_active',
    );
  }
}
