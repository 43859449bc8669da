import { DomainError } from '../common/errors/domain.error';
import { DEADLOCK_ATTEMPTS } from '../database/deadlock-retry';
import { SqlExecutor } from '../database/sql-executor';
import { toEnvelope } from '../http/envelope';
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
  let insert: jest.Mock<Promise<number>, [string, unknown[]]>;
  let query: jest.Mock<Promise<unknown[]>, [string, unknown[]]>;
  let repository: SmsConfigRepository;

  /** The executor answers the inserts with these outcomes, one per call, the last one for every later call. */
  function insertsAnswer(...outcomes: Array<Error | number>): void {
    let calls = 0;
    insert.mockImplementation(() => {
      const outcome = outcomes[Math.min(calls++, outcomes.length - 1)];
      return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
    });
  }

  beforeEach(() => {
    insert = jest.fn();
    query = jest.fn();
    repository = new SmsConfigRepository({ insert, query } as unknown as SqlExecutor);
  });

  it('should insert every column in one statement, the secrets as sealed, and answer the new id', async () => {
    insertsAnswer(7);
    await expect(repository.add(NEW_SMS_CONFIG)).resolves.toBe(7);
    expect(insert).toHaveBeenCalledTimes(1);
    const [sql, values] = insert.mock.calls[0];
    expect(sql).toMatch(/^INSERT INTO sms_config \(/);
    expect(values).toEqual([
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

  it('should insert again when the first insert is chosen as a deadlock victim', async () => {
    insertsAnswer(deadlock(), 7);
    await expect(repository.add(NEW_SMS_CONFIG)).resolves.toBe(7);
    expect(insert).toHaveBeenCalledTimes(2);
  });

  it(`should give up with a 503 after ${DEADLOCK_ATTEMPTS} inserts that were all deadlock victims`, async () => {
    insertsAnswer(deadlock());
    const error = await repository.add(NEW_SMS_CONFIG).catch((thrown: unknown) => thrown);
    expect(toEnvelope(error)).toEqual({ status: 503, error: 'Service temporarily unavailable, retry later' });
    expect(insert).toHaveBeenCalledTimes(DEADLOCK_ATTEMPTS);
  });

  it('should not insert again after an error that is not a deadlock', async () => {
    insertsAnswer(driverError('Cannot add or update a child row', 'ER_NO_REFERENCED_ROW_2', 1452), 7);
    const error = await repository.add(NEW_SMS_CONFIG).catch((thrown: unknown) => thrown);
    expect(toEnvelope(error).status).toBe(500);
    expect(insert).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['MySQL', driverError('sms_config limit reached', 'ER_SIGNAL_EXCEPTION', 1644)],
    ['SQLite', driverError('sms_config limit reached', 'SQLITE_CONSTRAINT_TRIGGER')],
  ])('should answer 409 when the limit’s trigger refuses the row (%s)', async (_dialect, refusal) => {
    insertsAnswer(refusal);
    const error = await repository.add(NEW_SMS_CONFIG).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DomainError);
    expect(toEnvelope(error)).toEqual({ status: 409, error: 'A client can have at most 100 SMS configurations' });
    expect(insert).toHaveBeenCalledTimes(1);
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
