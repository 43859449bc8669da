import { MigrationInterface, QueryRunner } from 'typeorm';

const EARLIER_TRIGGERS = ['sms_config_within_limit', 'sms_config_count_on_delete'];
const ER_BINLOG_CREATE_ROUTINE_NEED_SUPER = 1419;

/**
 * Removes what the first version of 1795400000000 made (two triggers) and what 1795327283819 made (a procedure), where
 * they exist, and counts every client's configurations again: from now on SmsConfigRepository keeps the count (left in
 * place, the triggers would count every configuration twice). With binary logging on, MySQL refuses even
 * `DROP TRIGGER IF EXISTS` to a user without SUPER, so the triggers are looked for first: a database that never had
 * them needs nothing more than the privileges on itself. Every statement may run again.
 */
export class SmsConfigLimitWithoutTrigger1795600000000 implements MigrationInterface {
  name = 'SmsConfigLimitWithoutTrigger1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const existing = (await queryRunner.query(
      `SELECT trigger_name AS name FROM information_schema.triggers WHERE trigger_schema = DATABASE() AND trigger_name IN (?, ?)`,
      EARLIER_TRIGGERS,
    )) as Array<{ name: string }>;
    for (const { name } of existing) await dropTrigger(queryRunner, name);
    await queryRunner.query('DROP PROCEDURE IF EXISTS sms_config_add_within_limit');
    await queryRunner.query('UPDATE client c SET sms_config_count = (SELECT COUNT(*) FROM sms_config s WHERE s.client_id = c.id)');
  }

  /** The triggers are not made again: they need a privilege an application's user does not have. */
  async down(): Promise<void> {}
}

async function dropTrigger(queryRunner: QueryRunner, name: string): Promise<void> {
  try {
    await queryRunner.query(`DROP TRIGGER ${name}`);
  } catch (error) {
    if ((error as { driverError?: { errno?: number } }).driverError?.errno !== ER_BINLOG_CREATE_ROUTINE_NEED_SUPER) throw error;
    throw new Error(
      `Trigger ${name} must go, and this database user may not drop it while binary logging is on: run ` +
        `"DROP TRIGGER ${EARLIER_TRIGGERS.join('; DROP TRIGGER ')};" as the user who created them (or with ` +
        'log_bin_trust_function_creators=1), then start again',
    );
  }
}
