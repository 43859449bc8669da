import { MigrationInterface, QueryRunner } from 'typeorm';

/** The two tables. Each statement may run again after a failure (MySQL commits DDL one statement at a time). */
export class CreateClientAndSmsConfig1732240000000 implements MigrationInterface {
  name = 'CreateClientAndSmsConfig1732240000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS client (
        id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
        app_name VARCHAR(100) NOT NULL,
        app_description VARCHAR(1000) NULL,
        app_url VARCHAR(2048) NOT NULL,
        secret_key_digest CHAR(64) CHARACTER SET ascii NOT NULL,
        preferred_sms_gateway VARCHAR(100) NULL,
        preferred_email_gateway VARCHAR(100) NULL,
        preferred_push_notification_gateway VARCHAR(100) NULL,
        is_host TINYINT(1) NOT NULL,
        created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
        UNIQUE KEY UQ_client_secret_key_digest (secret_key_digest)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS sms_config (
        id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
        client_id INT NOT NULL,
        provider_name VARCHAR(100) NOT NULL,
        provider_url VARCHAR(2048) NULL,
        username VARCHAR(255) NULL,
        password_sealed TEXT NULL,
        api_key_sealed TEXT NULL,
        sender_id VARCHAR(20) NULL,
        sms_type VARCHAR(50) NULL,
        sms_api VARCHAR(2048) NOT NULL,
        balance_url VARCHAR(2048) NULL,
        balance DECIMAL(18,6) NOT NULL DEFAULT 0,
        per_sms_cost DECIMAL(18,6) NOT NULL DEFAULT 0,
        is_active TINYINT(1) NOT NULL DEFAULT 1,
        created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
        KEY IDX_sms_config_client_id (client_id, id),
        CONSTRAINT FK_sms_config_client FOREIGN KEY (client_id) REFERENCES client (id) ON DELETE CASCADE
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE sms_config');
    await queryRunner.query('DROP TABLE client');
  }
}
