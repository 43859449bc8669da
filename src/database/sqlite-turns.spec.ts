import { SqliteTurns } from './sqlite-turns';

/** A promise the test settles, and whether it has been. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('SqliteTurns', () => {
  it('should hold back a statement from outside while a transaction holds the turn, and let the transaction’s own through', async () => {
    const turns = new SqliteTurns();
    const order: string[] = [];
    const commit = gate();
    const transaction = turns.holding(async () => {
      order.push('begin');
      await turns.statement(() => Promise.resolve(order.push('inside')));
      await commit.opened;
      order.push('commit');
    });
    const outside = turns.statement(() => Promise.resolve(order.push('outside')));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['begin', 'inside']);
    commit.open();
    await Promise.all([transaction, outside]);
    expect(order).toEqual(['begin', 'inside', 'commit', 'outside']);
  });

  it('should give the next one its turn after a transaction that failed', async () => {
    const turns = new SqliteTurns();
    await expect(turns.holding(() => Promise.reject(new Error('rolled back')))).rejects.toThrow('rolled back');
    await expect(turns.statement(() => Promise.resolve('ran'))).resolves.toBe('ran');
  });

  it('should run a transaction opened inside one as part of it, not wait for itself', async () => {
    const turns = new SqliteTurns();
    await expect(turns.holding(() => turns.holding(() => Promise.resolve('joined')))).resolves.toBe('joined');
  });
});
