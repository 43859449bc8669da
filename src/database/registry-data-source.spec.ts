import type { Pool, PoolConnection } from 'mysql2';
import { ServiceUnavailableError, DATABASE_TIMEOUT_MS } from '../common/errors/unavailable';
import { WaitBoundedPool } from './registry-data-source';
import { StatementTally } from './statement-tally';

/** A pool that gives its connection when the test says, behind the bound. */
function withPool() {
  const connection = { release: jest.fn() };
  let give: () => void = () => undefined;
  const pool = {
    getConnection: (callback: (error: null, connection: PoolConnection) => void) =>
      (give = () => callback(null, connection as unknown as PoolConnection)),
    end: jest.fn(),
  } as unknown as Pick<Pool, 'getConnection' | 'end'>;
  const statements = new StatementTally();
  const failed = jest.fn();
  statements.observe({ succeeded: jest.fn(), failed });
  const bounded = new WaitBoundedPool(pool, statements);
  const obtain = () =>
    new Promise<PoolConnection>((resolve, reject) => bounded.getConnection((error, given) => (error ? reject(error) : resolve(given!))));
  return { connection, statements, failed, obtain, give: () => give() };
}

describe('WaitBoundedPool', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should hand over a connection the pool gives in time, and keep it out of the pool', async () => {
    const { connection, statements, failed, obtain, give } = withPool();
    const obtained = obtain();
    expect(statements.inFlight).toBe(1);
    jest.advanceTimersByTime(DATABASE_TIMEOUT_MS - 1);
    give();
    await expect(obtained).resolves.toBe(connection);
    expect(connection.release).not.toHaveBeenCalled();
    expect(statements.inFlight).toBe(0);
    expect(failed).not.toHaveBeenCalled();
  });

  it('should fail a wait longer than the database timeout with 503, and give back the connection that comes too late', async () => {
    const { connection, statements, failed, obtain, give } = withPool();
    const obtained = obtain();
    jest.advanceTimersByTime(DATABASE_TIMEOUT_MS);
    await expect(obtained).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(statements.inFlight).toBe(0);
    expect(failed).toHaveBeenCalledWith(expect.any(ServiceUnavailableError));
    give();
    await Promise.resolve();
    await Promise.resolve();
    expect(connection.release).toHaveBeenCalledTimes(1);
  });
});
