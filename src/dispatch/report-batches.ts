import { DATABASE_TIMEOUT_MS, notAnsweredWithin } from '../common/errors/unavailable';

// Most reports one transaction takes: a batch holds the configuration's lock while it writes their audit entries.
export const MAX_REPORTS_PER_BATCH = 100;

interface Waiting<T, R> {
  item: T;
  since: number;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Reports on one configuration, taken one batch at a time per instance: those that arrive while a batch holds the
 * configuration's lock are the next batch, so a burst takes its lock a few times instead of once a report.
 * `take` answers each item in order, with its result or the error that refused it alone.
 */
export class ReportBatches<T, R> {
  private readonly waiting = new Map<number, Array<Waiting<T, R>>>();

  constructor(
    private readonly take: (key: number, items: T[]) => Promise<Array<R | Error>>,
    private readonly now: () => number = Date.now,
  ) {}

  submit(key: number, item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.waiting.get(key);
      const entry = { item, since: this.now(), resolve, reject };
      if (queue) return void queue.push(entry);
      this.waiting.set(key, [entry]);
      void this.drain(key);
    });
  }

  private async drain(key: number): Promise<void> {
    const queue = this.waiting.get(key)!;
    while (queue.length > 0) {
      // Bounded as a wait for a pool connection is: a report answered 503 must not be taken later.
      const oldest = this.now() - DATABASE_TIMEOUT_MS;
      const batch = queue.splice(0, MAX_REPORTS_PER_BATCH).filter((entry) => {
        if (entry.since >= oldest) return true;
        entry.reject(notAnsweredWithin(DATABASE_TIMEOUT_MS, 'database'));
        return false;
      });
      if (batch.length === 0) continue;
      try {
        const results = await this.take(
          key,
          batch.map((entry) => entry.item),
        );
        batch.forEach((entry, index) => {
          const result = results[index];
          if (result instanceof Error) entry.reject(result);
          else entry.resolve(result);
        });
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.waiting.delete(key);
  }
}
