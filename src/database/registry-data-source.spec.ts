import { DataSource } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { ServiceUnavailableError } from '../common/errors/unavailable';
import { DATABASE_TIMEOUT_MS } from './database-timeout';
import { boundConnectionWaits } from './registry-data-source';

/** A MySQL DataSource (never connected) whose pool gives its connection when the test says. */
function withPool() {
  const dataSource = new DataSource({ type: 'mysql', database: 'registry' });
  const driver = dataSource.driver as MysqlDriver;
  const connection = { release: jest.fn() };
  let give: () => void = () => undefined;
  driver.obtainMasterConnection = () => new Promise((resolve) => (give = () => resolve(connection)));
  boundConnectionWaits(dataSource);
  return { driver, connection, give: () => give() };
}

describe('boundConnectionWaits', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should hand over a connection the pool gives in time, and keep it out of the pool', async () => {
    const { driver, connection, give } = withPool();
    const obtained = driver.obtainMasterConnection();
    jest.advanceTimersByTime(DATABASE_TIMEOUT_MS - 1);
    give();
    await expect(obtained).resolves.toBe(connection);
    expect(connection.release).not.toHaveBeenCalled();
  });

  it('should fail a wait longer than the database timeout with 503, and give back the connection that comes too late', async () => {
    const { driver, connection, give } = withPool();
    const obtained = driver.obtainMasterConnection();
    jest.advanceTimersByTime(DATABASE_TIMEOUT_MS);
    await expect(obtained).rejects.toBeInstanceOf(ServiceUnavailableError);
    give();
    await Promise.resolve();
    await Promise.resolve();
    expect(connection.release).toHaveBeenCalledTimes(1);
  });
});
