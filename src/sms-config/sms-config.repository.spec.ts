import { DomainError } from '../common/errors/domain.error';
import { DEADLOCK_ATTEMPTS } from '../database/deadlock-retry';
import { SqlExecutor, SqlStatements, WriteResult } from '../database/sql-executor';
import { toEnvelope } from '../http/envelope';
import { MAX_SMS_CONFIGS_PER_CLIENT } from './sms-config-limit';
import { NewSmsConfig, SmsConfigRepository } from './sms-config.repository';

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

describe('SmsConfigRepository', () => {
  let execute: jest.Mock<Promise<WriteResult>, [string, unknown[]]>;
  let query: jest.Mock<Promise<unknown[]>, [string, unknown[]]>;
  let transactions: number;
  let repository: SmsConfigRepository;

  /** Each transaction ends with these outcomes, one per transaction, the last one for every later transaction. */
  function transactionsEnd(...outcomes: Array<Error | 'full' | number>): void {
    execute.mockImplementation((sql) => {
      const outcome = outcomes[Math.min(transactions - 1, outcomes.length - 1)];
      if (sql.startsWith('UPDATE client')) return Promise.resolve({ affectedRows: outcome === 'full' ? 0 : 1, insertId: 0 });
      if (outcome instanceof Error) return Promise.reject(outcome);
      return Promise.resolve({ affectedRows: 1, insertId: outcome as number });
    });
  }

  beforeEach(() => {
    execute = jest.fn();
    query = jest.fn();
    transactions = 0;
    const transaction = <T>(work: (statements: SqlStatements) => Promise<T>) => {
      transactions++;
      return work({ execute, query } as unknown as SqlStatements);
    };
    repository = new SmsConfigRepository({ query, transaction } as unknown as SqlExecutor);
  });

  it('should count the configuration in under the limit, then insert every column, the secrets as sealed, in one transaction', async () => {
    transactionsEnd(7);
    await expect(repository.add(NEW_SMS_CONFIG)).resolves.toBe(7);
    expect(transactions).toBe(1);
    expect(execute.mock.calls.map(([sql]) => sql.split(' ').slice(0, 3).join(' '))).toEqual([
      'UPDATE client SET',
      'INSERT INTO sms_config',
    ]);
    expect(execute.mock.calls[0][1]).toEqual([42, MAX_SMS_CONFIGS_PER_CLIENT]);
    expect(execute.mock.calls[1][1]).toEqual([
      42,
      'Twilio',
      null,
      'acme',
      'k1:sealed-password',
      'k1:sealed-api-key',
      null,
      'Transactional',
      'https://api.twilio.com/send',
      null,
      12.5,
      0.0125,
      1,
    ]);
  });

  it('should refuse a configuration past the limit with 409 and insert nothing', async () => {
    transactionsEnd('full');
    const error = await repository.add(NEW_SMS_CONFIG).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DomainError);
    expect(toEnvelope(error)).toEqual({ status: 409, error: 'A client can have at most 100 SMS configurations' });
    expect(execute.mock.calls.map(([sql]) => sql.split(' ')[0])).toEqual(['UPDATE']);
  });

  it('should run the transaction again when it was chosen as a deadlock victim', async () => {
    transactionsEnd(deadlock(), 7);
    await expect(repository.add(NEW_SMS_CONFIG)).resolves.toBe(7);
    expect(transactions).toBe(2);
  });

  it(`should give up with a 503 after ${DEADLOCK_ATTEMPTS} transactions that were all deadlock victims`, async () => {
    transactionsEnd(deadlock());
    const error = await repository.add(NEW_SMS_CONFIG).catch((thrown: unknown) => thrown);
    expect(toEnvelope(error)).toEqual({ status: 503, error: 'Service temporarily unavailable, retry later' });
    expect(transactions).toBe(DEADLOCK_ATTEMPTS);
  });

  it('should not run the transaction again after an error that is not a deadlock', async () => {
    transactionsEnd(driverError('Cannot add or update a child row', 'ER_NO_REFERENCED_ROW_2', 1452), 7);
    const error = await repository.add(NEW_SMS_CONFIG).catch((thrown: unknown) => thrown);
    expect(toEnvelope(error).status).toBe(500);
    expect(transactions).toBe(1);
  });

  it('should list a client’s configurations as the API shows them: numbers and booleans, whatever the driver returns', async () => {
    const row = { providerUrl: null, username: null, senderId: null, smsType: null, smsApi: 'https://a.example', balanceUrl: null };
    query.mockResolvedValue([
      { ...row, smsConfigId: '3', providerName: 'a', balance: '12.500000', perSmsCost: '0.012500', isActive: 1 },
      { ...row, smsConfigId: 4, providerName: 'b', balance: 0, perSmsCost: 1, isActive: 0 },
    ]);
    await expect(repository.listByClient(42)).resolves.toEqual([
      { ...row, smsConfigId: 3, providerName: 'a', balance: 12.5, perSmsCost: 0.0125, isActive: true },
      { ...row, smsConfigId: 4, providerName: 'b', balance: 0, perSmsCost: 1, isActive: false },
    ]);
    expect(query).toHaveBeenCalledWith(expect.stringMatching(/WHERE s\.client_id = \? ORDER BY s\.id$/), [42]);
  });
});
