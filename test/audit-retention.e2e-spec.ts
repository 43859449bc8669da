import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AuditLog } from '../src/audit/audit.repository';
import { sqlTimestamp } from '../src/database/timestamps';
import { AuditRetention } from '../src/events/audit-retention';
import { METRICS_CACHE_MS } from '../src/metrics/metrics-renderer';
import { TestApp, startTestApp } from './helpers/test-app';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('Audit retention', () => {
  let t: TestApp;

  beforeAll(async () => {
    // No broker: the relay publishes nothing, so the entries written unpublished stay so.
    t = await startTestApp({ AMQP_URL: 'amqp://guest:guest@127.0.0.1:1', AUDIT_RETENTION_DAYS: '30' });
  });
  afterAll(async () => t.close());
  beforeEach(async () => t.reset());

  /** Writes `count` entries `daysAgo` days old, as the service writes them; `published` false leaves them in the outbox. */
  async function writeEntries(count: number, daysAgo: number, { published = true, action = 'client.updated' } = {}): Promise<void> {
    const occurredAt = sqlTimestamp(new Date(Date.now() - daysAgo * DAY_MS));
    for (let start = 0; start < count; start += 500) {
      const rows = Array.from({ length: Math.min(500, count - start) }, () => [
        randomUUID(),
        occurredAt,
        action,
        'admin:00000000',
        7,
        published ? 0 : 1,
        published ? occurredAt : null,
      ]);
      await t.dataSource.query(
        `INSERT INTO audit_event (event_id, occurred_at, action, actor, client_id, changed, unpublished, published_at) VALUES ${rows
          .map(() => "(?, ?, ?, ?, ?, '[]', ?, ?)")
          .join(', ')}`,
        rows.flat(),
      );
    }
  }

  const remaining = async () =>
    (
      await t.dataSource.query<Array<{ daysAgo: number; unpublished: number; n: number | string }>>(
        'SELECT occurred_at AS occurredAt, unpublished, COUNT(*) AS n FROM audit_event GROUP BY occurred_at, unpublished ORDER BY occurred_at',
      )
    ).map((row) => ({ unpublished: Number(row.unpublished), n: Number(row.n) }));

  /** The counter as GET /metrics shows it (read past the scrape's cache). */
  const rowsDeletedMetric = async (): Promise<number> => {
    await sleep(METRICS_CACHE_MS + 50);
    const scraped = (await t.get('/metrics')).raw;
    return Number(/^audit_retention_rows_deleted_total (\d+)$/m.exec(scraped)?.[1]);
  };

  it('should delete entries older than AUDIT_RETENTION_DAYS in batches of at most 1,000, keep newer and unpublished ones, and count them', async () => {
    await writeEntries(2500, 31);
    await writeEntries(3, 400, { published: false });
    await writeEntries(4, 29);
    await writeEntries(2, 31, { action: 'sms-config.credentials-resolved' });
    const deleteBefore = jest.spyOn(t.app.get(AuditLog), 'deleteBefore');
    const countedBefore = await rowsDeletedMetric();

    expect(await t.app.get(AuditRetention).sweep()).toBe(2502);

    expect(await Promise.all(deleteBefore.mock.results.map((result) => result.value as Promise<number>))).toEqual([1000, 1000, 502]);
    for (const [, , limit] of deleteBefore.mock.calls) expect(limit).toBe(1000);
    deleteBefore.mockRestore();
    // Oldest first: the 400-day-old entries still in the outbox, then the 29-day-old ones.
    expect(await remaining()).toEqual([
      { unpublished: 1, n: 3 },
      { unpublished: 0, n: 4 },
    ]);
    expect((await rowsDeletedMetric()) - countedBefore).toBe(2502);
    // Nothing is left to delete.
    expect(await t.app.get(AuditRetention).sweep()).toBe(0);
  });

  // MySQL only: on SQLite one instance runs, and there is no lock to hold.
  if (process.env.TEST_DATABASE === 'mysql') {
    it('should delete nothing while another instance holds the relay lock: one instance at a time', async () => {
      await writeEntries(5, 31);
      const holder = t.dataSource.createQueryRunner();
      await holder.connect();
      try {
        await holder.startTransaction();
        await holder.query("SELECT name FROM outbox_relay_lock WHERE name = 'relay' FOR UPDATE");
        expect(await t.app.get(AuditRetention).sweep()).toBe(0);
        await holder.commitTransaction();
      } finally {
        await holder.release();
      }
      expect(await t.app.get(AuditRetention).sweep()).toBe(5);
    });
  }
});
