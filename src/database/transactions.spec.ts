import { DataSource } from 'typeorm';
import { registryDataSource } from './registry-data-source';
import { StatementOutcomeObserver, StatementTally } from './statement-tally';
import { Transactions } from './transactions';

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

  it('should keep its manager when a statement sent on the DataSource itself releases SQLite’s one runner', async () => {
    await dataSource.query('INSERT INTO t (id) VALUES (1)');
    await transactions.run((manager) => manager.query('INSERT INTO t (id) VALUES (2)'));
    expect(await transactions.sql('SELECT id FROM t ORDER BY id', [])).toEqual([{ id: 1 }, { id: 2 }]);
  });
});
