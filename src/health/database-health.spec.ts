import { StatementOutcomeObserver, StatementTally } from '../database/statement-tally';
import { Transactions } from '../database/transactions';
import { DATABASE_PROBE_INTERVAL_MS, DATABASE_PROBE_TIMEOUT_MS, DatabaseHealth, FAILURE_PROBE_GAP_MS } from './database-health';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' });
const duplicate = () => Object.assign(new Error("Duplicate entry 'x' for key 'uq'"), { code: 'ER_DUP_ENTRY' });

/** A DatabaseHealth over a stand-in executor whose ping answers as `ping` says. */
function databaseHealth(ping: jest.Mock<Promise<void>, []>) {
  let observer: StatementOutcomeObserver | undefined;
  const statements = { observe: (given: StatementOutcomeObserver) => (observer = given) } as unknown as StatementTally;
  const health = new DatabaseHealth(statements, { ping } as unknown as Transactions);
  health.onModuleInit();
  return { health, statements: () => observer! };
}

describe('DatabaseHealth', () => {
  let stop: (() => void) | undefined;

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    stop?.();
    jest.useRealTimers();
  });

  it('should be up from the start and send no query before the probe interval, then one per interval', async () => {
    const ping = jest.fn(() => Promise.resolve());
    const { health } = databaseHealth(ping);
    stop = () => health.onModuleDestroy();
    expect(health.current).toBe('up');
    await jest.advanceTimersByTimeAsync(DATABASE_PROBE_INTERVAL_MS - 1);
    expect(ping).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1 + 2 * DATABASE_PROBE_INTERVAL_MS);
    expect(ping).toHaveBeenCalledTimes(3);
    expect(health.current).toBe('up');
  });

  it('should turn down when a probe is refused, and up again as soon as a statement succeeds', async () => {
    const ping = jest.fn(() => Promise.reject(refused()));
    const { health, statements } = databaseHealth(ping);
    stop = () => health.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(DATABASE_PROBE_INTERVAL_MS);
    expect(health.current).toBe('down');
    statements().succeeded();
    expect(health.current).toBe('up');
  });

  it('should turn down when a probe gets no answer within its timeout, and send no second probe while the first hangs', async () => {
    let answer: () => void = () => undefined;
    const ping = jest.fn(() => new Promise<void>((resolve) => (answer = resolve)));
    const { health } = databaseHealth(ping);
    stop = () => health.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(DATABASE_PROBE_INTERVAL_MS + DATABASE_PROBE_TIMEOUT_MS - 1);
    expect(health.current).toBe('up');
    await jest.advanceTimersByTimeAsync(1);
    expect(health.current).toBe('down');
    await jest.advanceTimersByTimeAsync(3 * DATABASE_PROBE_INTERVAL_MS);
    expect(ping).toHaveBeenCalledTimes(1);
    // The driver gives up on it at last: the next interval probes again.
    answer();
    await jest.advanceTimersByTimeAsync(DATABASE_PROBE_INTERVAL_MS);
    expect(ping).toHaveBeenCalledTimes(2);
  });

  it('should probe at once when a statement fails for want of the database, at most once per gap, and not for a refused statement', async () => {
    const ping = jest.fn(() => Promise.reject(refused()));
    const { health, statements } = databaseHealth(ping);
    stop = () => health.onModuleDestroy();
    statements().failed(duplicate());
    expect(ping).not.toHaveBeenCalled();
    statements().failed(refused());
    expect(ping).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(0);
    expect(health.current).toBe('down');
    statements().failed(refused());
    expect(ping).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(FAILURE_PROBE_GAP_MS);
    statements().failed(refused());
    expect(ping).toHaveBeenCalledTimes(2);
  });

  it('should stop probing once destroyed, and not even for a failed statement', async () => {
    const ping = jest.fn(() => Promise.resolve());
    const { health, statements } = databaseHealth(ping);
    health.onModuleDestroy();
    expect(jest.getTimerCount()).toBe(0);
    statements().failed(refused());
    await jest.advanceTimersByTimeAsync(5 * DATABASE_PROBE_INTERVAL_MS);
    expect(ping).not.toHaveBeenCalled();
  });
});

describe('DatabaseHealth with real timers', () => {
  it('should not keep the process alive with its probe timer (unref)', () => {
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const before = timers();
    const { health } = databaseHealth(jest.fn(() => Promise.resolve()));
    try {
      expect(timers()).toBe(before);
    } finally {
      health.onModuleDestroy();
    }
  });
});
