import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { SecretSealer } from '../common/crypto/secret-sealer';
import { classifyError } from '../http/error-classification';
import { DEADLOCK_ATTEMPTS } from '../database/prepared-statements';
import { SmsConfigService } from './sms-config.service';

type Callback = (error: Error | null, result?: unknown) => void;
type Outcome = Error | { insertId: number };

const OWNER = { id: 42, secretKeyDigest: 'd'.repeat(64) };
const REQUEST = { providerName: 'Twilio', smsApi: 'https://api.twilio.com/send' };

function mysqlError(message: string, code: string, errno: number): Error {
  return Object.assign(new Error(message), { code, errno });
}
const deadlock = () => mysqlError('Deadlock found when trying to get lock; try restarting transaction', 'ER_LOCK_DEADLOCK', 1213);

describe('SmsConfigService on MySQL', () => {
  const sealer = new SecretSealer([{ id: 'k1', key: randomBytes(32) }]);
  let execute: jest.Mock<void, [unknown, Callback]>;
  let invalidate: jest.Mock;
  let service: SmsConfigService;

  /** The pool answers the inserts with these outcomes, one per call, the last one for every later call. */
  function poolAnswers(...outcomes: Outcome[]): void {
    let calls = 0;
    execute.mockImplementation((_options, callback) => {
      const outcome = outcomes[Math.min(calls++, outcomes.length - 1)];
      if (outcome instanceof Error) callback(outcome);
      else callback(null, { affectedRows: 1, ...outcome });
    });
  }

  beforeEach(() => {
    execute = jest.fn();
    invalidate = jest.fn();
    const driver = Object.assign(Object.create(MysqlDriver.prototype) as MysqlDriver, { pool: { execute } });
    service = new SmsConfigService({ driver } as unknown as DataSource, sealer, { invalidate });
  });

  it('should store the configuration and answer its verifyApiKey when the first insert is chosen as a deadlock victim', async () => {
    poolAnswers(deadlock(), { insertId: 7 });
    const answer = await service.add(OWNER, REQUEST);
    expect(sealer.openVerifyApiKey(answer.verifyApiKey)).toMatchObject({ smsConfigId: 7, clientId: 42 });
    expect(execute).toHaveBeenCalledTimes(2);
    expect(invalidate).toHaveBeenCalledTimes(1);
  });

  it(`should answer 503 after ${DEADLOCK_ATTEMPTS} inserts that were all deadlock victims`, async () => {
    poolAnswers(deadlock());
    const error = await service.add(OWNER, REQUEST).catch((thrown: unknown) => thrown);
    expect(classifyError(error)).toEqual({ status: 503, message: 'Service temporarily unavailable, retry later' });
    expect(execute).toHaveBeenCalledTimes(DEADLOCK_ATTEMPTS);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('should not insert again after an error that is not a deadlock', async () => {
    poolAnswers(mysqlError('Cannot add or update a child row', 'ER_NO_REFERENCED_ROW_2', 1452), { insertId: 7 });
    const error = await service.add(OWNER, REQUEST).catch((thrown: unknown) => thrown);
    expect(classifyError(error).status).toBe(500);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('should answer 409 when the limit’s trigger refuses the row', async () => {
    poolAnswers(mysqlError('sms_config limit reached', 'ER_SIGNAL_EXCEPTION', 1644));
    const error = await service.add(OWNER, REQUEST).catch((thrown: unknown) => thrown);
    expect(classifyError(error)).toEqual({ status: 409, message: 'A client can have at most 100 SMS configurations' });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(invalidate).not.toHaveBeenCalled();
  });
});
