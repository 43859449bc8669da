import { QueryRunner } from 'typeorm';
import { SmsConfigLimitByTrigger1795400000000 as MysqlLimit } from '../database/migrations/mysql/1795400000000-SmsConfigLimitByTrigger';
import { SmsConfigLimitByTrigger1795400000000 as SqliteLimit } from '../database/migrations/sqlite/1795400000000-SmsConfigLimitByTrigger';
import { MAX_SMS_CONFIGS_PER_CLIENT } from './sms-config-limit';

/** The statements a migration runs, recorded rather than run. */
async function statementsOf(migration: { up(queryRunner: QueryRunner): Promise<void> }): Promise<string> {
  const statements: string[] = [];
  const recorder = { query: (sql: string) => Promise.resolve(void statements.push(sql)) } as unknown as QueryRunner;
  await migration.up(recorder);
  return statements.join('\n');
}

describe('MAX_SMS_CONFIGS_PER_CLIENT', () => {
  it('should be the limit the MySQL trigger keeps (a new limit needs a new migration)', async () => {
    expect(await statementsOf(new MysqlLimit())).toContain(`AND sms_config_count < ${MAX_SMS_CONFIGS_PER_CLIENT};`);
  });

  it('should be the limit the SQLite trigger keeps (a new limit needs a new migration)', async () => {
    expect(await statementsOf(new SqliteLimit())).toContain(`AND sms_config_count >= ${MAX_SMS_CONFIGS_PER_CLIENT};`);
  });
});
