import { valuesByColumn } from '../../test/helpers/statement-values';
import { AuditLog } from '../audit/audit.repository';
import { exactJson } from '../common/exact-amount';
import { DEADLOCK_ATTEMPTS } from '../database/deadlock-retry';
import { mysqlMetadataOnly } from '../entities';
import { Transactions, ScriptStatement, WriteResult } from '../database/transactions';
import { WriteScripts } from '../database/write-scripts';
import { toEnvelope } from '../http/envelope';
import { MAX_SMS_CONFIGS_PER_CLIENT, MAX_SMS_CONFIG_ANSWER_BYTES, SmsConfigLimitReachedException, answerBytesOf } from './sms-config-limit';
import { GET_CLIENT_SMS_CONFIG_FIELDS } from './dto/sms-config-response.dto';
import { NewSmsConfig, SmsConfigFields } from './sms-config-fields';
import { DestinationPriceRepository } from './destination-price.repository';
import { SmsConfigBudgetRepository } from './sms-config-budget.repository';
import { SmsConfigRepository } from './sms-config.repository';

const NEW_SMS_CONFIG: NewSmsConfig = {
  clientId: 42,
  providerName: 'Twilio',
  providerUrl: null,
  username: 'acme',
  passwordSealed: 'k1:sealed-password',
  apiKeySealed: 'k1:sealed-api-key',
  senderId: null,
  smsType: 'Transactional',
  smsApi: 'https://api.twilio.com/send',
  balanceUrl: null,
  balance: 12.5,
  perSmsCost: 0.0125,
  isActive: true,
};

function driverError(message: string, code: string, errno?: number): Error {
  return Object.assign(new Error(message), { code, errno });
}
const deadlock = () => driverError('Deadlock found when trying to get lock; try restarting transaction', 'ER_LOCK_DEADLOCK', 1213);
/** MariaDB's word for a deadlock on the table's AUTO-INC lock, which the add's INSERT ... SELECT takes. */
const autoIncrementDeadlock = () => driverError('Failed to read auto-increment value from storage engine', 'ER_AUTOINC_READ_FAILED', 1467);

const ORIGIN = { actor: 'client:42', requestId: 'req-1', callerRequestId: null, sourceAddress: null, userAgent: null };

describe('SmsConfigRepository', () => {
  let script: jest.Mock<Promise<WriteResult[]>, [ScriptStatement[]]>;
  let updated: jest.Mock<void, [Record<string, unknown>]>;
  let budget: SmsConfigBudgetRepository;
  let repository: SmsConfigRepository;
  let fields: SmsConfigFields;

  /** Each script ends with these outcomes, one per run, the last one for every later run. */
  function scriptsEnd(...outcomes: Array<Error | 'full' | number>): void {
    script.mockImplementation(() => {
      const outcome = outcomes[Math.min(script.mock.calls.length - 1, outcomes.length - 1)];
      if (outcome instanceof Error) return Promise.reject(outcome);
      const counted = outcome === 'full' ? 0 : 1;
      return Promise.resolve([
        { affectedRows: counted, insertId: 0 },
        { affectedRows: counted, insertId: counted ? (outcome as number) : 0 },
      ]);
    });
  }

  beforeEach(async () => {
    script = jest.fn();
    updated = jest.fn();
    const dataSource = await mysqlMetadataOnly();
    fields = new SmsConfigFields(dataSource);
    // An UPDATE's values, as the query builder is given them.
    const update = {
      update: () => update,
      set: (values: Record<string, unknown>) => {
        updated(values);
        return update;
      },
      where: () => update,
      updateEntity: () => update,
      execute: jest.fn(),
    };
    const transactions = {
      dialect: 'mysql',
      active: false,
      manager: { createQueryBuilder: () => update },
      run: (work: () => Promise<unknown>) => work(),
    } as unknown as Transactions;
    const auditLog = new AuditLog(transactions, dataSource);
    jest.spyOn(auditLog, 'record').mockResolvedValue();
    budget = new SmsConfigBudgetRepository(transactions, { run: script } as unknown as WriteScripts, auditLog, dataSource);
    repository = new SmsConfigRepository(
      transactions,
      auditLog,
      new DestinationPriceRepository(transactions, dataSource),
      budget,
      dataSource,
    );
  });

  it('should count the configuration in under the limit and insert it, the secrets as sealed, in one script', async () => {
    scriptsEnd(7);
    await expect(repository.add(NEW_SMS_CONFIG, ORIGIN)).resolves.toBe(7);
    expect(script).toHaveBeenCalledTimes(1);
    const [[countIn, insert, audit]] = script.mock.calls[0];
    expect(countIn).toEqual({
      sql: expect.stringMatching(/^UPDATE `client` SET `sms_config_count` = `sms_config_count` \+ 1 /),
      values: [42, MAX_SMS_CONFIGS_PER_CLIENT, 1, 6, answerBytesOf(NEW_SMS_CONFIG), MAX_SMS_CONFIG_ANSWER_BYTES - 1],
    });
    expect(countIn.sql).toContain('(SELECT COALESCE(SUM(');
    expect(insert.sql).toMatch(/^INSERT INTO `sms_config` .* WHERE ROW_COUNT\(\) = 1$/s);
    expect(valuesByColumn(insert)).toMatchObject({
      client_id: 42,
      provider_name: 'Twilio',
      provider_url: null,
      username: 'acme',
      password_sealed: 'k1:sealed-password',
      api_key_sealed: 'k1:sealed-api-key',
      sender_id: null,
      sms_type: 'Transactional',
      sms_api: 'https://api.twilio.com/send',
      balance_url: null,
      balance: 12.5,
      per_sms_cost: 0.0125,
      is_active: 1,
      low_balance_threshold: null,
      // The amounts again, as their exact twins: millionths.
      balance_micros: '12500000',
      per_sms_cost_micros: '12500',
      low_balance_threshold_micros: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/),
    });
    expect(audit.sql).toMatch(/^INSERT INTO `audit_event` .* LAST_INSERT_ID\(\).* WHERE ROW_COUNT\(\) = 1$/s);
    expect(valuesByColumn(audit)).toMatchObject({
      event_id: expect.any(String),
      occurred_at: expect.any(String),
      action: 'sms-config.created',
      actor: 'client:42',
      client_id: 42,
      sms_config_id: { sql: 'LAST_INSERT_ID()' },
      request_id: 'req-1',
      caller_request_id: null,
      changed: '[]',
      unpublished: 1,
    });
  });

  it('should store a field the request left out as its column’s default', async () => {
    scriptsEnd(7);
    await repository.add({ clientId: 42, providerName: 'Twilio', smsApi: 'https://api.twilio.com/send' }, ORIGIN);
    const [[, insert]] = script.mock.calls[0];
    expect(valuesByColumn(insert)).toMatchObject({
      provider_url: null,
      username: null,
      password_sealed: null,
      api_key_sealed: null,
      sender_id: null,
      sms_type: null,
      balance_url: null,
      balance: 0,
      per_sms_cost: 0,
      is_active: 1,
      low_balance_threshold: null,
      balance_micros: '0',
      per_sms_cost_micros: '0',
      low_balance_threshold_micros: null,
    });
  });

  it('should change the fields sent, a null to its column’s default, and each amount’s twin with it', async () => {
    await repository.update(7, 42, { balance: null, isActive: null, senderId: null, perSmsCost: 0.5, password: 'k1:sealed' }, ORIGIN);
    expect(updated).toHaveBeenCalledWith({
      balance: 0,
      balanceMicros: '0',
      isActive: true,
      senderId: null,
      perSmsCost: 0.5,
      perSmsCostMicros: '500000',
      passwordSealed: 'k1:sealed',
      updatedAt: expect.any(Date),
    });
  });

  /** What the exact count, under the client's lock, reads: `count` configurations taking `bytes` each. */
  function storedParts(count: number, bytes: number): void {
    jest.spyOn(repository, 'lockOwner').mockResolvedValue();
    const parts = Array.from({ length: count }, (_, index) => ({ smsConfigId: index + 1, texts: {}, bytes }));
    jest.spyOn(budget as unknown as { answerPartsOf: () => Promise<unknown> }, 'answerPartsOf').mockResolvedValue(parts);
  }

  it('should refuse a configuration past the limit with 409', async () => {
    scriptsEnd('full');
    storedParts(MAX_SMS_CONFIGS_PER_CLIENT, 100);
    const error = await repository.add(NEW_SMS_CONFIG, ORIGIN).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SmsConfigLimitReachedException);
    expect(toEnvelope(error)).toEqual({ status: 409, error: 'A client can have at most 100 SMS configurations' });
    expect(script).toHaveBeenCalledTimes(1);
  });

  it('should count exactly when the over-estimate has no room, and refuse past the answer budget with 409', async () => {
    scriptsEnd('full');
    const part = answerBytesOf(NEW_SMS_CONFIG);
    storedParts(2, (MAX_SMS_CONFIG_ANSWER_BYTES - part) / 2);
    const error = await repository.add(NEW_SMS_CONFIG, ORIGIN).catch((thrown: unknown) => thrown);
    expect(toEnvelope(error)).toEqual({
      status: 409,
      error: "A client's SMS configurations can take at most 262144 bytes of get-client answer",
    });
    expect(script).toHaveBeenCalledTimes(1);
  });

  it('should add without the over-estimate when the exact count has room, to the last byte', async () => {
    scriptsEnd('full', 9);
    const part = answerBytesOf(NEW_SMS_CONFIG);
    storedParts(1, MAX_SMS_CONFIG_ANSWER_BYTES - 1 - part);
    await expect(repository.add(NEW_SMS_CONFIG, ORIGIN)).resolves.toBe(9);
    expect(script).toHaveBeenCalledTimes(2);
    expect(script.mock.calls[1][0][0].values[2]).toBeNull();
  });

  it.each([
    ['a deadlock', deadlock],
    ['a deadlock on the AUTO-INC lock (MariaDB)', autoIncrementDeadlock],
  ])('should run the script again when its transaction was chosen as the victim of %s', async (_case, victim) => {
    scriptsEnd(victim(), 7);
    await expect(repository.add(NEW_SMS_CONFIG, ORIGIN)).resolves.toBe(7);
    expect(script).toHaveBeenCalledTimes(2);
  });

  it('should answer 503, not 500, for an AUTO-INC deadlock it does not run again (inside an Idempotency-Key transaction)', () => {
    expect(toEnvelope(autoIncrementDeadlock())).toEqual({ status: 503, error: 'Service temporarily unavailable, retry later' });
  });

  it(`should give up with a 503 after ${DEADLOCK_ATTEMPTS} runs that were all deadlock victims`, async () => {
    scriptsEnd(deadlock());
    const error = await repository.add(NEW_SMS_CONFIG, ORIGIN).catch((thrown: unknown) => thrown);
    expect(toEnvelope(error)).toEqual({ status: 503, error: 'Service temporarily unavailable, retry later' });
    expect(script).toHaveBeenCalledTimes(DEADLOCK_ATTEMPTS);
  });

  it('should not run the script again after an error that is not a deadlock', async () => {
    scriptsEnd(driverError('Cannot add or update a child row', 'ER_NO_REFERENCED_ROW_2', 1452), 7);
    const error = await repository.add(NEW_SMS_CONFIG, ORIGIN).catch((thrown: unknown) => thrown);
    expect(toEnvelope(error).status).toBe(500);
    expect(script).toHaveBeenCalledTimes(1);
  });

  it('should show a configuration as the API shows it: numbers and booleans, whatever the driver returns', () => {
    const show = fields.reader<Record<string, unknown>>(GET_CLIENT_SMS_CONFIG_FIELDS);
    // get-client's joined read is SQL (docs/architecture.md): its rows come as the driver returns them.
    const row = { providerUrl: null, username: null, senderId: null, smsType: null, smsApi: 'https://a.example', balanceUrl: null };
    expect(
      [
        {
          ...row,
          providerName: 'a',
          balance: '12.500000',
          perSmsCost: '0.012500',
          balanceMicros: '12500000',
          perSmsCostMicros: '12500',
          isActive: 1,
        },
        // A row the previous release wrote: no twins.
        { ...row, providerName: 'b', balance: 0, perSmsCost: 1, balanceMicros: null, perSmsCostMicros: null, isActive: 0 },
      ].map(show),
    ).toEqual([
      { ...row, providerName: 'a', balance: 12.5, perSmsCost: 0.0125, isActive: true },
      { ...row, providerName: 'b', balance: 0, perSmsCost: 1, isActive: false },
    ]);
  });

  it('should show an amount a double cannot hold as its stored digits, and as its DECIMAL once the previous release changed it', () => {
    const show = fields.reader<Record<string, unknown>>(GET_CLIENT_SMS_CONFIG_FIELDS);
    const row = { providerUrl: null, username: null, senderId: null, smsType: null, smsApi: 'https://a.example', balanceUrl: null };
    const [exact, changedSince] = [
      // SQLite's DECIMAL: the nearest double, which the twin rounds to.
      { ...row, providerName: 'a', balance: Number('99999999999.99999'), balanceMicros: '99999999999999990' },
      { ...row, providerName: 'a', balance: 5.25, balanceMicros: '99999999999999990' },
    ].map((read) => show({ ...read, perSmsCost: '0.000001', perSmsCostMicros: '1', isActive: 1 }));
    expect(exactJson(exact.balance)).toBe('99999999999.99999');
    expect(changedSince.balance).toBe(5.25);
    expect(exact.perSmsCost).toBe(0.000001);
  });
});
