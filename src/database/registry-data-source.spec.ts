import type { Pool, PoolConnection } from 'mysql2';
import { ServiceUnavailableError, DATABASE_TIMEOUT_MS } from '../common/errors/unavailable';
import { RegistryDataSource, WaitBoundedPool } from './registry-data-source';
import { StatementOutcomeObserver, StatementTally } from './statement-tally';

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

describe('RegistryDataSource on SQLite', () => {
  let dataSource: RegistryDataSource;
  let observer: StatementOutcomeObserver & { succeeded: jest.Mock; failed: jest.Mock };

  beforeEach(async () => {
    dataSource = await new RegistryDataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    observer = { succeeded: jest.fn(), failed: jest.fn() };
    dataSource.statements.observe(observer);
  });
  afterEach(() => dataSource.destroy());

  it('should count every statement, and tell how each ended', async () => {
    const started = jest.spyOn(dataSource.statements, 'started');
    await dataSource.query('INSERT INTO t (id) VALUES (1)');
    await expect(dataSource.query('INSERT INTO t (id) VALUES (1)')).rejects.toThrow('UNIQUE');
    await dataSource.manager.createQueryBuilder().select('t.id', 'id').from('t', 't').getRawOne();
    expect(started).toHaveBeenCalledTimes(3);
    expect(observer.succeeded).toHaveBeenCalledTimes(2);
    expect(observer.failed).toHaveBeenCalledTimes(1);
    expect(dataSource.statements.inFlight).toBe(0);
  });

  it('should hold back a statement from outside while a transaction holds the turn, so that its rollback leaves it', async () => {
    let rollBack: () => void = () => undefined;
    const rolledBack = new Promise<void>((resolve) => (rollBack = resolve));
    const transaction = dataSource.sqliteTurns!.holding(() =>
      dataSource.transaction(async (manager) => {
        await manager.query('INSERT INTO t (id) VALUES (1)');
        await rolledBack;
        throw new Error('rolled back');
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    const outside = dataSource.query('INSERT INTO t (id) VALUES (2)');
    await new Promise((resolve) => setImmediate(resolve));
    rollBack();
    await expect(transaction).rejects.toThrow('rolled back');
    await outside;
    expect(await dataSource.query('SELECT id FROM t')).toEqual([{ id: 2 }]);
  });
});
