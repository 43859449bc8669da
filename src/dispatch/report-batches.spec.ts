import { DATABASE_TIMEOUT_MS, ServiceUnavailableError } from '../common/errors/unavailable';
import { MAX_REPORTS_PER_BATCH, ReportBatches } from './report-batches';

function deferred() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { released, release };
}

describe('ReportBatches', () => {
  it('should take a report alone when nothing is in progress, and those arriving meanwhile as the next batch', async () => {
    const batches: number[][] = [];
    const first = deferred();
    const take = jest.fn(async (_key: number, items: number[]) => {
      batches.push(items);
      if (batches.length === 1) await first.released;
      return items.map((item) => item * 10);
    });
    const reports = new ReportBatches<number, number>(take);
    const answers = [reports.submit(7, 1), reports.submit(7, 2), reports.submit(7, 3)];
    first.release();
    expect(await Promise.all(answers)).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('should keep configurations apart: one batch per key at a time, different keys at once', async () => {
    const inProgress = new Set<number>();
    let together = 0;
    const reports = new ReportBatches<string, string>(async (key, items) => {
      expect(inProgress.has(key)).toBe(false);
      inProgress.add(key);
      together = Math.max(together, inProgress.size);
      await new Promise((resolve) => setImmediate(resolve));
      inProgress.delete(key);
      return items.map((item) => `${key}:${item}`);
    });
    const answers = await Promise.all([reports.submit(1, 'a'), reports.submit(2, 'b'), reports.submit(1, 'c'), reports.submit(2, 'd')]);
    expect(answers).toEqual(['1:a', '2:b', '1:c', '2:d']);
    expect(together).toBe(2);
  });

  it(`should take at most ${MAX_REPORTS_PER_BATCH} reports in one batch`, async () => {
    const sizes: number[] = [];
    const reports = new ReportBatches<number, number>(async (_key, items) => {
      sizes.push(items.length);
      await new Promise((resolve) => setImmediate(resolve));
      return items;
    });
    await Promise.all(Array.from({ length: 1 + MAX_REPORTS_PER_BATCH + 5 }, (_, index) => reports.submit(1, index)));
    expect(sizes).toEqual([1, MAX_REPORTS_PER_BATCH, 5]);
  });

  it('should refuse one report with its own error and answer the others of its batch', async () => {
    const reports = new ReportBatches<number, number>((_key, items) =>
      Promise.resolve(items.map((item) => (item === 2 ? new RangeError('two') : item))),
    );
    const answers = await Promise.allSettled([reports.submit(1, 1), reports.submit(1, 2), reports.submit(1, 3)]);
    expect(answers).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new RangeError('two') },
      { status: 'fulfilled', value: 3 },
    ]);
  });

  it('should refuse every report of a batch whose transaction failed, and go on with the next batch', async () => {
    let calls = 0;
    const reports = new ReportBatches<number, number>(async (_key, items) => {
      calls += 1;
      await new Promise((resolve) => setImmediate(resolve));
      if (calls === 2) throw new Error('deadlock');
      return items;
    });
    const answers = await Promise.allSettled([reports.submit(1, 1), reports.submit(1, 2), reports.submit(1, 3)]);
    expect(answers.map((answer) => answer.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(await reports.submit(1, 4)).toBe(4);
  });

  it('should answer 503 to a report that waited longer than a database wait may, and never take it later', async () => {
    let now = 0;
    const taken: number[] = [];
    const first = deferred();
    const reports = new ReportBatches<number, number>(
      async (_key, items) => {
        taken.push(...items);
        if (taken.length === 1) await first.released;
        return items;
      },
      () => now,
    );
    const answers = Promise.allSettled([reports.submit(1, 1), reports.submit(1, 2)]);
    now = 1;
    const inTime = reports.submit(1, 3);
    now = DATABASE_TIMEOUT_MS + 1;
    first.release();
    expect(await answers).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new ServiceUnavailableError(`database did not answer within ${DATABASE_TIMEOUT_MS} ms`) },
    ]);
    expect(await inTime).toBe(3);
    expect(taken).toEqual([1, 3]);
  });
});
