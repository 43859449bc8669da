import { ChangeSequence, GAP_WAIT_MS, MAX_GAPS, PAGE_ROWS, READ_EVERY_MS } from './change-sequence';
import type { ChangeSequenceRepository, SequencedLine } from './change-sequence.repository';

/** The table as the repository reads it: committed rows only, the range from an id and the ids asked for. */
class Table {
  rows: SequencedLine[] = [];
  readonly reads: Array<{ from: number; missing: number[] }> = [];

  commit(id: number, line: string, origin = 'elsewhere'): void {
    this.rows.push({ id, line, origin });
    this.rows.sort((a, b) => a.id - b.id);
  }

  prune(belowId: number): void {
    this.rows = this.rows.filter((row) => row.id >= belowId);
  }

  repository(): jest.Mocked<ChangeSequenceRepository> {
    return {
      latestIds: jest.fn((count: number) =>
        Promise.resolve(
          this.rows
            .map(({ id }) => id)
            .reverse()
            .slice(0, count),
        ),
      ),
      append: jest.fn(() => Promise.resolve()),
      readFrom: jest.fn((from: number, missing: number[], limit: number) => {
        this.reads.push({ from, missing });
        return Promise.resolve(this.rows.filter((row) => row.id >= from || missing.includes(row.id)).slice(0, limit));
      }),
      deleteOlderThan: jest.fn(),
    } as unknown as jest.Mocked<ChangeSequenceRepository>;
  }
}

describe('ChangeSequence', () => {
  let table: Table;
  let listener: { apply: jest.Mock; forgetEverything: jest.Mock };
  let clock: number;
  let sequence: ChangeSequence;
  const applied = () => listener.apply.mock.calls.flatMap(([lines]: [string[]]) => lines);

  async function started(): Promise<ChangeSequence> {
    sequence = new ChangeSequence(table.repository(), listener, { now: () => clock });
    jest.spyOn(sequence as unknown as { schedule: () => void }, 'schedule').mockImplementation(() => undefined);
    await sequence.onApplicationBootstrap();
    return sequence;
  }

  beforeEach(() => {
    table = new Table();
    listener = { apply: jest.fn(), forgetEverything: jest.fn() };
    clock = 0;
  });

  it('should start at the largest id stored, and apply only the lines written after it', async () => {
    table.commit(1, 'a');
    table.commit(2, 'key:b');
    await started();
    table.commit(3, 'c');
    table.commit(4, 'provider-hosts');
    await sequence.readNow();
    expect(applied()).toEqual(['c', 'provider-hosts']);
    await sequence.readNow();
    expect(applied()).toEqual(['c', 'provider-hosts']);
    expect(listener.forgetEverything).not.toHaveBeenCalled();
  });

  it('should skip the lines its own process wrote, which it applied when it wrote them', async () => {
    await started();
    table.commit(1, 'mine', sequence.origin);
    table.commit(2, 'theirs');
    await sequence.readNow();
    expect(applied()).toEqual(['theirs']);
  });

  it('should read again an id missing below one it read, and apply its line once it commits', async () => {
    table.commit(1, 'a');
    await started();
    table.commit(3, 'c'); // 2 was handed out first, its transaction still open
    await sequence.readNow();
    expect(applied()).toEqual(['c']);
    expect(table.reads.at(-1)).toEqual({ from: 1, missing: [] });

    await sequence.readNow();
    expect(table.reads.at(-1)).toEqual({ from: 3, missing: [2] });
    clock += GAP_WAIT_MS - 1;
    table.commit(2, 'b');
    await sequence.readNow();
    expect(applied()).toEqual(['c', 'b']);
    await sequence.readNow();
    expect(table.reads.at(-1)).toEqual({ from: 3, missing: [] });
    expect(applied()).toEqual(['c', 'b']);
  });

  it('should stop looking for a missing id once successful reads covered 5 s (a rolled back transaction)', async () => {
    await started();
    table.commit(2, 'b');
    await sequence.readNow();
    clock += GAP_WAIT_MS - 1;
    await sequence.readNow();
    expect(table.reads.at(-1)!.missing).toEqual([1]);
    clock += 1;
    // This read looks at 5 s: the last look.
    await sequence.readNow();
    expect(table.reads.at(-1)!.missing).toEqual([1]);
    await sequence.readNow();
    expect(table.reads.at(-1)!.missing).toEqual([]);
  });

  it('should look for a missing id again however long reads failed, and apply its line once it commits', async () => {
    const repository = table.repository();
    sequence = new ChangeSequence(repository, listener, { now: () => clock });
    jest.spyOn(sequence as unknown as { schedule: () => void }, 'schedule').mockImplementation(() => undefined);
    await sequence.onApplicationBootstrap();
    table.commit(2, 'b'); // 1 handed out first, its transaction still open
    await sequence.readNow();
    const read = repository.readFrom.getMockImplementation()!;
    repository.readFrom.mockRejectedValue(new Error('connection lost'));
    for (let failed = 0; failed < 20; failed++) {
      clock += 1000;
      await sequence.readNow();
    }
    repository.readFrom.mockImplementation(read);
    for (let covered = 0; covered < GAP_WAIT_MS - 1000; covered += 1000) {
      clock += 1000;
      await sequence.readNow();
      expect(table.reads.at(-1)!.missing).toEqual([1]);
    }
    table.commit(1, 'a');
    await sequence.readNow();
    expect(applied()).toEqual(['b', 'a']);
  });

  it('should count the time between reads, not a read the database held: an id is looked for again after a stall', async () => {
    const repository = table.repository();
    sequence = new ChangeSequence(repository, listener, { now: () => clock });
    jest.spyOn(sequence as unknown as { schedule: () => void }, 'schedule').mockImplementation(() => undefined);
    await sequence.onApplicationBootstrap();
    table.commit(2, 'b');
    await sequence.readNow();
    const read = repository.readFrom.getMockImplementation()!;
    repository.readFrom.mockImplementationOnce((...args) => ((clock += 6000), read(...args)));
    clock += READ_EVERY_MS;
    await sequence.readNow();
    clock += READ_EVERY_MS;
    await sequence.readNow();
    expect(table.reads.at(-1)!.missing).toEqual([1]);
    table.commit(1, 'a');
    clock += READ_EVERY_MS;
    await sequence.readNow();
    expect(applied()).toEqual(['b', 'a']);
  });

  it('should take the ids missing among the 500 below the highest at its start as missing, and apply their lines once committed', async () => {
    for (const id of [1, 2, 4, 5]) table.commit(id, `l${id}`);
    await started();
    await sequence.readNow();
    expect(table.reads.at(-1)).toEqual({ from: 5, missing: [3] });
    table.commit(3, 'late');
    await sequence.readNow();
    expect(applied()).toEqual(['late']);
    expect(listener.forgetEverything).not.toHaveBeenCalled();
  });

  it('should look at most 500 ids below the highest at its start', async () => {
    table.commit(1, 'old');
    table.commit(MAX_GAPS + 2, 'highest');
    await started();
    await sequence.readNow();
    const missing = table.reads.at(-1)!.missing;
    expect(missing).toHaveLength(MAX_GAPS);
    expect([missing[0], missing.at(-1)]).toEqual([2, MAX_GAPS + 1]);
    expect(listener.forgetEverything).not.toHaveBeenCalled();
  });

  it('should empty the cache when the lines after its mark were pruned while it was away', async () => {
    table.commit(5, 'a');
    await started();
    for (let id = 6; id <= 9; id++) table.commit(id, `missed-${id}`);
    table.prune(8);
    await sequence.readNow();
    expect(listener.forgetEverything).toHaveBeenCalledTimes(1);
    expect(applied()).toEqual([]);

    table.commit(10, 'after');
    await sequence.readNow();
    expect(applied()).toEqual(['after']);
    expect(listener.forgetEverything).toHaveBeenCalledTimes(1);
  });

  it('should not empty the cache when only its own mark was pruned (an idle hour) and nothing after it was', async () => {
    table.commit(5, 'a');
    await started();
    table.prune(6);
    await sequence.readNow();
    table.commit(6, 'next');
    await sequence.readNow();
    expect(applied()).toEqual(['next']);
    expect(listener.forgetEverything).not.toHaveBeenCalled();
  });

  it('should empty the cache rather than track more missing ids than it may', async () => {
    await started();
    table.commit(MAX_GAPS + 2, 'far');
    await sequence.readNow();
    expect(listener.forgetEverything).toHaveBeenCalledTimes(1);
    await sequence.readNow();
    expect(table.reads.at(-1)!.missing).toEqual([]);
  });

  it('should say a full page came back, so that the rest is read at once', async () => {
    await started();
    for (let id = 1; id <= PAGE_ROWS + 1; id++) table.commit(id, `l${id}`);
    expect(await sequence.readNow()).toBe(true);
    expect(await sequence.readNow()).toBe(false);
    expect(applied()).toHaveLength(PAGE_ROWS + 1);
  });

  it('should read every interval, one read at a time, and go on after a failed read', async () => {
    jest.useFakeTimers();
    try {
      const repository = table.repository();
      let release: () => void = () => undefined;
      repository.readFrom.mockImplementationOnce(() => new Promise((resolve) => (release = () => resolve([]))));
      repository.readFrom.mockImplementationOnce(() => Promise.reject(new Error('connection lost')));
      sequence = new ChangeSequence(repository, listener, { now: () => Date.now() });
      await sequence.onApplicationBootstrap();
      await jest.advanceTimersByTimeAsync(READ_EVERY_MS);
      expect(repository.readFrom).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(5 * READ_EVERY_MS);
      expect(repository.readFrom).toHaveBeenCalledTimes(1);
      release();
      await jest.advanceTimersByTimeAsync(1);
      expect(repository.readFrom).toHaveBeenCalledTimes(2);
      await jest.advanceTimersByTimeAsync(READ_EVERY_MS);
      expect(repository.readFrom).toHaveBeenCalledTimes(3);
      await sequence.onApplicationShutdown();
      await jest.advanceTimersByTimeAsync(5 * READ_EVERY_MS);
      expect(repository.readFrom).toHaveBeenCalledTimes(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
