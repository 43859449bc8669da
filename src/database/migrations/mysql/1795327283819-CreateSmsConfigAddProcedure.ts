import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Adding an SMS configuration within the per-client limit, as one transaction run by the server: one round trip
 * instead of five. Answers the new id, or NULL when the client already has `p_limit` configurations.
 */
export class CreateSmsConfigAddProcedure1795327283819 implements MigrationInterface {
  name = 'CreateSmsConfigAddProcedure1795327283819';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Parameters declare their character set: they would otherwise take the database's default.
    await queryRunner.query(`
      CREATE PROCEDURE sms_config_add_within_limit(
        IN p_client_id INT,
        IN p_provider_name VARCHAR(100) CHARACTER SET utf8mb4,
        IN p_provider_url VARCHAR(2048) CHARACTER SET utf8mb4,
        IN p_username VARCHAR(255) CHARACTER SET utf8mb4,
        IN p_password_sealed TEXT CHARACTER SET utf8mb4,
        IN p_api_key_sealed TEXT CHARACTER SET utf8mb4,
        IN p_sender_id VARCHAR(20) CHARACTER SET utf8mb4,
        IN p_sms_type VARCHAR(50) CHARACTER SET utf8mb4,
        IN p_sms_api VARCHAR(2048) CHARACTER SET utf8mb4,
        IN p_balance_url VARCHAR(2048) CHARACTER SET utf8mb4,
        IN p_balance DECIMAL(18,6),
        IN p_per_sms_cost DECIMAL(18,6),
        IN p_is_active TINYINT(1),
        IN p_limit INT
      )
      MODIFIES SQL DATA
      SQL SECURITY INVOKER
      BEGIN
        DECLARE locked_id INT;
        DECLARE existing INT;
        DECLARE EXIT HANDLER FOR SQLEXCEPTION
        BEGIN
          ROLLBACK;
          RESIGNAL;
        END;
        START TRANSACTION;
        -- Locks the client row, so concurrent adds for one client are counted one after another.
        SELECT id INTO locked_id FROM client WHERE id = p_client_id FOR UPDATE;
        -- A plain (non-locking) read after the lock: a locking count would take next-key locks on the scanned
        -- sms_config index range, which make neighbouring clients' adds wait and deadlock.
        SELECT COUNT(*) INTO existing FROM sms_config WHERE client_id = p_client_id;
        IF existing < p_limit THEN
          INSERT INTO sms_config (client_id, provider_name, provider_url, username, password_sealed, api_key_sealed,
            sender_id, sms_type, sms_api, balance_url, balance, per_sms_cost, is_active)
          VALUES (p_client_id, p_provider_name, p_provider_url, p_username, p_password_sealed, p_api_key_sealed,
            p_sender_id, p_sms_type, p_sms_api, p_balance_url, p_balance, p_per_sms_cost, p_is_active);
          COMMIT;
          SELECT LAST_INSERT_ID() AS smsConfigId;
        ELSE
          ROLLBACK;
          SELECT NULL AS smsConfigId;
        END IF;
      END`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP PROCEDURE sms_config_add_within_limit');
  }
}
