import { DataSource } from 'typeorm';
import { registryDataSource } from './registry-data-source';
import { MonotonicClock } from '../common/clock';
import { ServiceUnavailableError } from '../common/errors/unavailable';
import { StatementOutcomeObserver, StatementTally } from './statement-tally';
import { COMMIT_WITHIN_MS, Transactions } from './transactions';

describe('Transactions on SQLite', () => {
  let dataSource: DataSource;
  let statements: StatementTally;
  let transactions: Transactions;
  let observer: StatementOutcomeObserver & { succeeded: jest.Mock; failed: jest.Mock };

  beforeEach(async () => {
    dataSource = await registryDataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    statements = new StatementTally();
    transactions = new Transactions(dataSource, statements);
    await transactions.manager.query('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    observer = { succeeded: jest.fn(), failed: jest.fn() };
    statements.observe(observer);
  });
  afterEach(() => dataSource.destroy());

  it('should count every statement, a transaction’s and one SQLite refuses to prepare included, and tell how each ended', async () => {
    const started = jest.spyOn(statements, 'started');
    await transactions.manager.query('INSERT INTO t (id) VALUES (1)');
    await expect(transactions.manager.query('INSERT INTO t (id) VALUES (1)')).rejects.toThrow('UNIQUE');
    // Not toThrow(): better-sqlite3's error class is that of the first test file that loaded it, an Error of another realm.
    await expect(transactions.manager.query('SELECT id FROM missing')).rejects.toMatchObject({ code: 'SQLITE_ERROR' });
    await transactions.manager.createQueryBuilder().select('t.id', 'id').from('t', 't').getRawOne();
    await transactions.run((manager) => manager.query('INSERT INTO t (id) VALUES (2)'));
    // The transaction's BEGIN, its statement and its COMMIT.
    expect(started).toHaveBeenCalledTimes(7);
    expect(observer.succeeded).toHaveBeenCalledTimes(5);
    expect(observer.failed).toHaveBeenCalledTimes(2);
    expect(statements.inFlight).toBe(0);
  });

  it('should hold back a statement from outside while a transaction holds the turn, so that its rollback leaves it', async () => {
    let rollBack: () => void = () => undefined;
    const rolledBack = new Promise<void>((resolve) => (rollBack = resolve));
    const transaction = transactions.run(async (manager) => {
      await manager.query('INSERT INTO t (id) VALUES (1)');
      await rolledBack;
      throw new Error('rolled back');
    });
    await new Promise((resolve) => setImmediate(resolve));
    const outside = transactions.sql('INSERT INTO t (id) VALUES (2)', []);
    await new Promise((resolve) => setImmediate(resolve));
    expect(statements.inFlight).toBe(1);
    rollBack();
    await expect(transaction).rejects.toThrow('rolled back');
    await outside;
    expect(await transactions.manager.query('SELECT id FROM t')).toEqual([{ id: 2 }]);
  });

  describe('endWith()', () => {
    let now: number;
    const logged = async () => (await transactions.sql<{ what: string }>('SELECT what FROM log ORDER BY seq', [])).map(({ what }) => what);
    const log = (what: string) => ({ sql: 'INSERT INTO log (what) VALUES (?)', values: [what] });

    beforeEach(async () => {
      now = 0;
      const clock: MonotonicClock = { now: () => now };
      transactions = new Transactions(dataSource, statements, clock);
      await transactions.manager.query('CREATE TABLE log (seq INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT)');
    });

    it('should send its statements after the work, joined transactions’ included, as the transaction’s last', async () => {
      const committed = jest.fn();
      await transactions.run(async (manager) => {
        transactions.endWith({ ...log('line'), afterCommit: committed });
        await manager.query(log('change').sql, log('change').values);
        await transactions.run(async (joined) => {
          transactions.endWith(log('joined line'));
          await joined.query(log('joined change').sql, log('joined change').values);
        });
        expect(committed).not.toHaveBeenCalled();
      });
      expect(await logged()).toEqual(['change', 'joined change', 'line', 'joined line']);
      expect(committed).toHaveBeenCalledTimes(1);
    });

    it('should roll back, as unavailable, a transaction whose last statements answered more than 3 s after they were sent', async () => {
      const committed = jest.fn();
      const transaction = transactions.run(async (manager) => {
        await manager.query(log('change').sql, log('change').values);
        transactions.endWith({ ...log('line'), afterCommit: committed });
        transactions.afterCommit(committed);
        // The clock moves on while the last statement runs: SQLite answers at once, a stalled database would not.
        const query = manager.query.bind(manager);
        jest.spyOn(manager, 'query').mockImplementation(async (sql: string, values?: unknown[]) => {
          const answered: unknown = await query(sql, values);
          if (sql === log('line').sql) now += COMMIT_WITHIN_MS + 1;
          return answered;
        });
      });
      await expect(transaction).rejects.toThrow(ServiceUnavailableError);
      expect(await logged()).toEqual([]);
      expect(committed).not.toHaveBeenCalled();
    });

    it('should commit when the last statements answered within 3 s', async () => {
      await transactions.run((manager) => {
        transactions.endWith(log('line'));
        const query = manager.query.bind(manager);
        jest.spyOn(manager, 'query').mockImplementation(async (sql: string, values?: unknown[]) => {
          const answered: unknown = await query(sql, values);
          now += COMMIT_WITHIN_MS;
          return answered;
        });
        return Promise.resolve();
      });
      expect(await logged()).toEqual(['line']);
    });

    it('should be refused outside a transaction, where nothing would follow it', () => {
      expect(() => transactions.endWith(log('line'))).toThrow('endWith() outside a transaction');
    });
  });

  it('should keep its manager when a statement sent on the DataSource itself releases SQLite’s one runner', async () => {
    await dataSource.query('INSERT INTO t (id) VALUES (1)');
    await transactions.run((manager) => manager.query('INSERT INTO t (id) VALUES (2)'));
    expect(await transactions.sql('SELECT id FROM t ORDER BY id', [])).toEqual([{ id: 1 }, { id: 2 }]);
  });
});
