import { setTimeout as sleep } from 'node:timers/promises';
import { sha256Hex } from '../src/auth/digest';
import { Clock } from '../src/common/clock';
import { DeliveryCount } from '../src/delivery-signals/delivery-count.entity';
import { DeliverySignalsRetention } from '../src/delivery-signals/delivery-signals-retention';
import { DeliverySignalsRetentionRepository } from '../src/delivery-signals/delivery-signals-retention.repository';
import { PumpingBaseline } from '../src/delivery-signals/pumping-baseline.entity';
import { PumpingCount } from '../src/delivery-signals/pumping-count.entity';
import { PumpingRange, PumpingSignal } from '../src/delivery-signals/pumping-range.entity';
import { METRICS_CACHE_MS } from '../src/metrics/metrics-renderer';
import { EventConsumer } from './helpers/event-consumer';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const ADMIN_ACTOR = `admin:${sha256Hex(ADMIN_API_KEY).slice(0, 8)}`;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
// 30.123 s into a minute, so that bounds at whole minutes and milliseconds both show.
const NOW = Date.parse('2026-11-28T12:00:30.123Z');
const NOW_MINUTE = Math.floor(NOW / MINUTE_MS);

/**
 * The admin side of the pumping guard: the client's two settings, the suspicions listed and lifted, and the retention of
 * the delivery signals' rows. Suspicions and counts are written through the app's repositories here, as the report path
 * writes them, on a clock the tests set.
 */
describe('Pumping guard: settings, suspicions, lift and retention', () => {
  let t: TestApp;
  let events: EventConsumer;
  let now = NOW;

  beforeAll(async () => {
    t = await startTestApp();
    jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => now);
    // Swept by hand here, at the times the tests set, never by the timer in between.
    t.app.get(DeliverySignalsRetention).onModuleDestroy();
    events = await EventConsumer.bind('client.pumping-lifted');
  });
  afterAll(async () => {
    await events.close();
    await t.close();
  });
  afterEach(() => {
    now = NOW;
  });

  async function newClient() {
    const appName = `pumping-${Math.random().toString(36).slice(2)}`;
    const secretKey = await t.addClient({ appName });
    const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    return { secretKey, clientId };
  }

  const change = (clientId: number, body: unknown) => t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body });
  const viewOf = async (clientId: number) => (await t.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results;
  const list = (query = '', headers: Record<string, string> = ADMIN) => t.get(`/api/v1/pumping-ranges${query}`, headers);
  const lift = (id: number | string, headers: Record<string, string> = ADMIN) => t.post(`/api/v1/pumping-ranges/${id}/lift`, { headers });
  const auditOf = async (clientId: number, action: string) =>
    (await t.get(`/api/v1/audit-events?clientId=${clientId}&action=${action}`, ADMIN)).body.results.items;

  interface Suspicion {
    clientId: number;
    range?: string;
    signals?: PumpingSignal[];
    suspectedAt: number;
    until: number;
    liftedAt?: number | null;
    sent?: number;
  }

  async function suspect({
    clientId,
    range = '+44740012xxxx',
    signals = ['velocity'],
    suspectedAt,
    until,
    liftedAt = null,
    sent = 412,
  }: Suspicion) {
    const inserted = await t.dataSource.getRepository(PumpingRange).insert({
      clientId,
      range,
      signals,
      sent: String(sent),
      codesSent: '400',
      verified: '3',
      suspectedAt: new Date(suspectedAt),
      until: new Date(until),
      liftedAt: liftedAt === null ? null : new Date(liftedAt),
    });
    return inserted.identifiers[0].id as number;
  }

  async function count(clientId: number, range: string, minute: number, sent = 10) {
    await t.dataSource
      .getRepository(PumpingCount)
      .insert({ clientId, range, minute, sent: String(sent), codesSent: String(sent), verified: '0' });
  }

  const countsOf = async (clientId: number) =>
    (await t.dataSource.getRepository(PumpingCount).find({ where: { clientId }, order: { range: 'ASC', minute: 'ASC' } })).map(
      (row) => `${row.range}@${row.minute}`,
    );

  describe('the client settings', () => {
    it('should set pumpingGuard and allowPremiumNumbers, show them after the daily fields and audit the change', async () => {
      const { clientId } = await newClient();
      const before = await viewOf(clientId);
      expect(before).toMatchObject({ pumpingGuard: 'monitor', allowPremiumNumbers: false });
      const shown = Object.keys(before);
      expect(shown.slice(shown.indexOf('sentToday'), shown.indexOf('sentToday') + 3)).toEqual([
        'sentToday',
        'pumpingGuard',
        'allowPremiumNumbers',
      ]);

      const set = await change(clientId, { pumpingGuard: 'block', allowPremiumNumbers: true });
      expect(set.status).toBe(200);
      expect(set.body.results).toMatchObject({ pumpingGuard: 'block', allowPremiumNumbers: true });
      expect(await viewOf(clientId)).toMatchObject({ pumpingGuard: 'block', allowPremiumNumbers: true });
      const listed = (await t.get(`/api/v1/clients?appName=${before.appName}`, ADMIN)).body.results.items;
      expect(listed).toMatchObject([{ clientId, pumpingGuard: 'block', allowPremiumNumbers: true }]);
      const updated = await auditOf(clientId, 'client.updated');
      expect(updated.map((entry: { changed: string[]; actor: string }) => [entry.actor, entry.changed])).toEqual([
        [ADMIN_ACTOR, ['pumpingGuard', 'allowPremiumNumbers']],
      ]);

      // The same values again change nothing; each setting is changed alone too.
      expect((await change(clientId, { pumpingGuard: 'block' })).status).toBe(200);
      expect(await auditOf(clientId, 'client.updated')).toHaveLength(1);
      expect((await change(clientId, { pumpingGuard: 'off' })).body.results).toMatchObject({
        pumpingGuard: 'off',
        allowPremiumNumbers: true,
      });
      expect((await change(clientId, { allowPremiumNumbers: false })).body.results).toMatchObject({
        pumpingGuard: 'off',
        allowPremiumNumbers: false,
      });
      expect((await auditOf(clientId, 'client.updated')).map((entry: { changed: string[] }) => entry.changed)).toEqual([
        ['allowPremiumNumbers'],
        ['pumpingGuard'],
        ['pumpingGuard', 'allowPremiumNumbers'],
      ]);
    });

    it.each([
      [{ pumpingGuard: null }, 'pumpingGuard must be one of: off, monitor, block'],
      [{ pumpingGuard: 'BLOCK' }, 'pumpingGuard must be one of: off, monitor, block'],
      [{ pumpingGuard: 2 }, 'pumpingGuard must be one of: off, monitor, block'],
      [{ allowPremiumNumbers: null }, 'allowPremiumNumbers must be a boolean value'],
      [{ allowPremiumNumbers: 'true' }, 'allowPremiumNumbers must be a boolean value'],
      [{ allowPremiumNumbers: 1 }, 'allowPremiumNumbers must be a boolean value'],
    ])('should refuse %j with 400 naming the problem, and change nothing', async (body, error) => {
      const { clientId } = await newClient();
      const answer = await change(clientId, body);
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { status: 400, error } });
      expect(await viewOf(clientId)).toMatchObject({ pumpingGuard: 'monitor', allowPremiumNumbers: false });
      expect(await auditOf(clientId, 'client.updated')).toEqual([]);
    });

    it("should show neither setting in any answer to the client's own key", async () => {
      const { clientId, secretKey } = await newClient();
      expect((await change(clientId, { pumpingGuard: 'block', allowPremiumNumbers: true })).status).toBe(200);
      const added = await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() });
      expect(added.status).toBe(200);
      const configs = await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } });
      const smsConfigId = configs.body.results[0].smsConfigId as number;
      const answers = [
        added,
        configs,
        await t.post('/api/client/get/secretKey', { headers: { secretKey } }),
        await t.get(`/api/v1/sms-configs/${smsConfigId}`, { secretKey }),
        await t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, { headers: { secretKey }, body: { senderId: 'Pumped' } }),
        await t.post(`/api/v1/sms-configs/${smsConfigId}/verify-api-key`, { headers: { secretKey } }),
        await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey } }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.raw).not.toMatch(/pumpingGuard|allowPremiumNumbers/);
      }
      // The same key may not read the admin view.
      expect((await t.get(`/api/v1/clients/${clientId}`, { 'x-api-key': secretKey })).status).toBe(401);
    });
  });

  describe('GET /api/v1/pumping-ranges', () => {
    it('should list each suspicion newest first with its exact fields, filter by client and standing, and page', async () => {
      const { clientId } = await newClient();
      const other = await newClient();
      const expired = await suspect({ clientId, range: '+44740011xxxx', suspectedAt: NOW - 3 * HOUR_MS, until: NOW - 2 * HOUR_MS });
      const lifted = await suspect({
        clientId,
        range: '+44740012xxxx',
        signals: ['velocity', 'conversion'],
        suspectedAt: NOW - 30 * MINUTE_MS,
        until: NOW + 30 * MINUTE_MS,
        liftedAt: NOW - 10 * MINUTE_MS,
      });
      const standing = await suspect({
        clientId,
        range: '+44740012xxxx',
        signals: ['conversion'],
        suspectedAt: NOW - 5 * MINUTE_MS,
        until: NOW + 55 * MINUTE_MS,
        sent: 1_000_000,
      });
      const othersStanding = await suspect({ clientId: other.clientId, suspectedAt: NOW - MINUTE_MS, until: NOW + HOUR_MS });

      const all = await list(`?clientId=${clientId}`);
      expect(all.status).toBe(200);
      expect(all.body).toEqual({
        status: 200,
        results: {
          items: [
            {
              pumpingRangeId: standing,
              clientId,
              range: '+44740012xxxx',
              signals: ['conversion'],
              sent: 1000000,
              codesSent: 400,
              verified: 3,
              suspectedAt: '2026-11-28T11:55:30.123Z',
              until: '2026-11-28T12:55:30.123Z',
              liftedAt: null,
            },
            expect.objectContaining({ pumpingRangeId: lifted, signals: ['velocity', 'conversion'], liftedAt: '2026-11-28T11:50:30.123Z' }),
            expect.objectContaining({ pumpingRangeId: expired, range: '+44740011xxxx', until: '2026-11-28T10:00:30.123Z', liftedAt: null }),
          ],
          nextCursor: null,
        },
      });

      const ids = async (query: string) =>
        (await list(query)).body.results.items.map((item: { pumpingRangeId: number }) => item.pumpingRangeId);
      expect(await ids(`?clientId=${clientId}&standing=true`)).toEqual([standing]);
      expect(await ids(`?clientId=${clientId}&standing=false`)).toEqual([lifted, expired]);
      expect(await ids(`?clientId=${other.clientId}`)).toEqual([othersStanding]);
      expect((await ids('?standing=true')).slice(0, 2)).toEqual([othersStanding, standing]);

      // Standing is read on the service's clock: past its until, a suspicion is no longer standing.
      now = NOW + 55 * MINUTE_MS;
      expect(await ids(`?clientId=${clientId}&standing=true`)).toEqual([]);
      expect(await ids(`?clientId=${clientId}&standing=false`)).toEqual([standing, lifted, expired]);
      now = NOW + 55 * MINUTE_MS - 1;
      expect(await ids(`?clientId=${clientId}&standing=true`)).toEqual([standing]);

      const first = (await list(`?clientId=${clientId}&limit=2`)).body.results;
      expect(first.items.map((item: { pumpingRangeId: number }) => item.pumpingRangeId)).toEqual([standing, lifted]);
      expect(first.nextCursor).toEqual(expect.any(String));
      // A suspicion found meanwhile does not move the pages after the cursor.
      await suspect({ clientId, range: '+44740013xxxx', suspectedAt: NOW, until: NOW + HOUR_MS });
      const second = (await list(`?clientId=${clientId}&limit=2&cursor=${first.nextCursor}`)).body.results;
      expect(second).toEqual({ items: [expect.objectContaining({ pumpingRangeId: expired })], nextCursor: null });
    });

    it.each([
      ['?standing=yes', 'standing must be true or false'],
      ['?clientId=0', 'clientId must be a positive integer'],
      ['?clientId=1e2', 'clientId must be a positive integer'],
      ['?limit=201', 'limit must be an integer from 1 to 200'],
      ['?cursor=abc', 'cursor is not valid'],
      ['?range=%2B44', 'property range should not exist'],
    ])('should refuse %s with 400 naming the problem', async (query, error) => {
      expect((await list(query)).body).toEqual({ status: 400, error });
    });

    it('should answer 401 without an admin key', async () => {
      const { secretKey } = await newClient();
      expect((await list('', {})).body).toEqual({ status: 401, error: 'x-api-key header is required' });
      expect((await list('', DISPATCHER)).body).toEqual({ status: 401, error: 'x-api-key is not valid' });
      expect((await list('', { 'x-api-key': secretKey })).body).toEqual({ status: 401, error: 'x-api-key is not valid' });
      expect((await list('', { secretKey })).status).toBe(401);
    });
  });

  describe('POST /api/v1/pumping-ranges/:pumpingRangeId/lift', () => {
    it("should end a standing suspicion, delete that range's counts and no other, audit and publish the lift", async () => {
      const { clientId } = await newClient();
      const other = await newClient();
      const id = await suspect({ clientId, suspectedAt: NOW - 5 * MINUTE_MS, until: NOW + 55 * MINUTE_MS });
      const othersId = await suspect({ clientId: other.clientId, suspectedAt: NOW - 5 * MINUTE_MS, until: NOW + 55 * MINUTE_MS });
      for (const minute of [NOW_MINUTE - 2, NOW_MINUTE - 1]) await count(clientId, '+44740012xxxx', minute);
      await count(clientId, '+44740099xxxx', NOW_MINUTE - 1);
      await count(other.clientId, '+44740012xxxx', NOW_MINUTE - 1);

      const answer = await lift(id);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 200,
        body: {
          status: 200,
          results: {
            pumpingRangeId: id,
            clientId,
            range: '+44740012xxxx',
            signals: ['velocity'],
            sent: 412,
            codesSent: 400,
            verified: 3,
            suspectedAt: '2026-11-28T11:55:30.123Z',
            until: '2026-11-28T12:55:30.123Z',
            liftedAt: '2026-11-28T12:00:30.123Z',
          },
        },
      });
      expect((await list(`?clientId=${clientId}`)).body.results.items).toEqual([answer.body.results]);
      expect((await list(`?clientId=${clientId}&standing=true`)).body.results.items).toEqual([]);
      expect(await countsOf(clientId)).toEqual([`+44740099xxxx@${NOW_MINUTE - 1}`]);
      expect(await countsOf(other.clientId)).toEqual([`+44740012xxxx@${NOW_MINUTE - 1}`]);
      expect((await list(`?clientId=${other.clientId}&standing=true`)).body.results.items).toMatchObject([{ pumpingRangeId: othersId }]);

      const [entry] = await auditOf(clientId, 'client.pumping-lifted');
      expect(entry).toMatchObject({
        action: 'client.pumping-lifted',
        actor: ADMIN_ACTOR,
        clientId,
        smsConfigId: null,
        requestId: answer.headers['x-request-id'],
        changed: [],
        details: { range: '+44740012xxxx' },
      });
      const [published] = await events.waitFor((body) => body.clientId === clientId, 1);
      expect(published.routingKey).toBe('client.pumping-lifted');
      expect(published.properties.messageId).toBe(entry.eventId);
      const { sourceAddress: _address, userAgent: _agent, ...publishedEntry } = entry;
      expect(published.body).toEqual(publishedEntry);
    });

    it('should answer 409 for a suspicion lifted already or past its until, and change nothing', async () => {
      const { clientId } = await newClient();
      const id = await suspect({ clientId, suspectedAt: NOW - 5 * MINUTE_MS, until: NOW + 55 * MINUTE_MS });
      const expired = await suspect({ clientId, range: '+44740011xxxx', suspectedAt: NOW - 2 * HOUR_MS, until: NOW - HOUR_MS });
      await count(clientId, '+44740011xxxx', NOW_MINUTE - 1);
      expect((await lift(id)).status).toBe(200);
      await count(clientId, '+44740012xxxx', NOW_MINUTE);

      const notSuspected = { status: 409, error: 'pumping range is not suspected' };
      now = NOW + MINUTE_MS;
      expect((await lift(id)).body).toEqual(notSuspected);
      expect((await lift(expired)).body).toEqual(notSuspected);
      // At its until exactly, a suspicion has ended.
      now = NOW + 55 * MINUTE_MS;
      const ending = await suspect({ clientId, range: '+44740013xxxx', suspectedAt: NOW, until: now });
      expect((await lift(ending)).body).toEqual(notSuspected);

      const items = (await list(`?clientId=${clientId}`)).body.results.items;
      expect(items.map((item: { liftedAt: string | null }) => item.liftedAt)).toEqual([null, null, '2026-11-28T12:00:30.123Z']);
      expect(await countsOf(clientId)).toEqual([`+44740011xxxx@${NOW_MINUTE - 1}`, `+44740012xxxx@${NOW_MINUTE}`]);
      expect(await auditOf(clientId, 'client.pumping-lifted')).toHaveLength(1);
    });

    it('should answer 404 for an unknown id, 400 for an id that is not one, and 401 without an admin key', async () => {
      const { clientId, secretKey } = await newClient();
      const id = await suspect({ clientId, suspectedAt: NOW, until: NOW + HOUR_MS });
      expect((await lift(id + 1000)).body).toEqual({ status: 404, error: 'Pumping range not found' });
      expect((await lift('0')).body).toEqual({ status: 400, error: 'pumpingRangeId must be a positive integer' });
      expect((await lift(id, {})).body).toEqual({ status: 401, error: 'x-api-key header is required' });
      expect((await lift(id, DISPATCHER)).body).toEqual({ status: 401, error: 'x-api-key is not valid' });
      expect((await lift(id, { 'x-api-key': secretKey })).body).toEqual({ status: 401, error: 'x-api-key is not valid' });
      expect((await list(`?clientId=${clientId}&standing=true`)).body.results.items).toMatchObject([{ pumpingRangeId: id }]);
      expect(await auditOf(clientId, 'client.pumping-lifted')).toEqual([]);
    });
  });

  describe('retention', () => {
    const retention = () => t.app.get(DeliverySignalsRetention);
    const TABLES = ['delivery_count', 'pumping_count', 'pumping_baseline', 'pumping_range'];
    /** The counter of each table as GET /metrics shows it (read past the scrape's cache); every table's series is there from the start. */
    const rowsDeletedMetric = async (): Promise<Record<string, number>> => {
      await sleep(METRICS_CACHE_MS + 50);
      const scraped = (await t.get('/metrics')).raw;
      const line = (table: string) => new RegExp(`^delivery_signals_rows_deleted_total\\{table="${table}"\\} (\\d+)$`, 'm');
      return Object.fromEntries(TABLES.map((table) => [table, Number(line(table).exec(scraped)?.[1])]));
    };

    beforeEach(async () => {
      for (const entity of [DeliveryCount, PumpingCount, PumpingBaseline, PumpingRange]) {
        await t.dataSource.getRepository(entity).createQueryBuilder().delete().execute();
      }
    });

    async function newConfig(secretKey: string): Promise<number> {
      expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
      return (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results[0].smsConfigId as number;
    }

    const minutesOf = async (entity: typeof DeliveryCount | typeof PumpingCount) =>
      (await t.dataSource.getRepository(entity).find({ order: { minute: 'ASC' } })).map((row) => row.minute);

    it('should delete what left each window or retention in batches of at most 1,000, keep the rest, and count it', async () => {
      const { secretKey, clientId } = await newClient();
      const smsConfigId = await newConfig(secretKey);
      const before = await rowsDeletedMetric();
      for (const table of TABLES) expect(before[table]).toBeGreaterThanOrEqual(0);
      // DELIVERY_RATE_WINDOW_MS 15 min: the bucket 15 minutes back started 15.5 min ago, out; 1,500 rows of it and older.
      const deliveryCounts = t.dataSource.getRepository(DeliveryCount);
      const old = Array.from({ length: 1500 }, (_, index) => ({
        smsConfigId,
        callingCode: String(1 + (index % 3)),
        minute: NOW_MINUTE - 15 - Math.floor(index / 3),
        delivered: '1',
        undelivered: '0',
      }));
      for (let start = 0; start < old.length; start += 300) await deliveryCounts.insert(old.slice(start, start + 300));
      for (const minute of [NOW_MINUTE - 14, NOW_MINUTE])
        await deliveryCounts.insert({ smsConfigId, callingCode: '44', minute, delivered: '1', undelivered: '1' });
      // PUMPING_WINDOW_MS 1 h.
      for (const minute of [NOW_MINUTE - 61, NOW_MINUTE - 60, NOW_MINUTE - 59, NOW_MINUTE]) await count(clientId, '+44740012xxxx', minute);
      // Today (2026-11-28) and the 7 days before are kept.
      for (const day of ['2026-11-19', '2026-11-20', '2026-11-21', '2026-11-28']) {
        await t.dataSource.getRepository(PumpingBaseline).insert({ clientId, day, highestSent: '40' });
      }
      // Suspicions end when lifted, else at their until; they are kept 30 days after.
      const ended = (endedAgo: number, lifted: boolean, untilAfterLift = HOUR_MS) =>
        suspect({
          clientId,
          suspectedAt: NOW - endedAgo - HOUR_MS,
          until: NOW - endedAgo + (lifted ? untilAfterLift : 0),
          liftedAt: lifted ? NOW - endedAgo : null,
        });
      const liftedLongAgo = await ended(30 * DAY_MS + 1, true);
      const liftedBeforeItsLongUntil = await ended(31 * DAY_MS, true, 2 * DAY_MS);
      const expiredLongAgo = await ended(30 * DAY_MS + 1, false);
      const liftedRecently = await ended(30 * DAY_MS - 1, true);
      const expiredRecently = await ended(30 * DAY_MS - 1, false);
      const standing = await suspect({ clientId, suspectedAt: NOW, until: NOW + HOUR_MS });
      const deleteDeliveryCounts = jest.spyOn(t.app.get(DeliverySignalsRetentionRepository), 'deleteDeliveryCountsBefore');

      expect(await retention().sweep(NOW)).toEqual({ delivery_count: 1500, pumping_count: 2, pumping_baseline: 2, pumping_range: 3 });

      const batches = await Promise.all(deleteDeliveryCounts.mock.results.map((result) => result.value as Promise<number>));
      deleteDeliveryCounts.mockRestore();
      expect(batches).toEqual([1000, 500]);
      expect(await minutesOf(DeliveryCount)).toEqual([NOW_MINUTE - 14, NOW_MINUTE]);
      expect(await minutesOf(PumpingCount)).toEqual([NOW_MINUTE - 59, NOW_MINUTE]);
      const days = await t.dataSource.getRepository(PumpingBaseline).find({ order: { day: 'ASC' } });
      expect(days.map((row) => row.day)).toEqual(['2026-11-21', '2026-11-28']);
      const kept = await t.dataSource.getRepository(PumpingRange).find({ order: { id: 'ASC' } });
      expect(kept.map((row) => row.id)).toEqual([liftedRecently, expiredRecently, standing]);
      expect([liftedLongAgo, liftedBeforeItsLongUntil, expiredLongAgo].some((id) => kept.some((row) => row.id === id))).toBe(false);

      const after = await rowsDeletedMetric();
      expect(Object.fromEntries(TABLES.map((table) => [table, after[table] - before[table]]))).toEqual({
        delivery_count: 1500,
        pumping_count: 2,
        pumping_baseline: 2,
        pumping_range: 3,
      });
      expect(await retention().sweep(NOW)).toEqual({ delivery_count: 0, pumping_count: 0, pumping_baseline: 0, pumping_range: 0 });
    });

    it("should sweep on the service's clock: a minute later, the next bucket has left the window", async () => {
      const { secretKey, clientId } = await newClient();
      const smsConfigId = await newConfig(secretKey);
      await t.dataSource
        .getRepository(DeliveryCount)
        .insert({ smsConfigId, callingCode: '44', minute: NOW_MINUTE - 14, delivered: '1', undelivered: '0' });
      await count(clientId, '+44740012xxxx', NOW_MINUTE - 59);
      expect(await retention().sweep()).toMatchObject({ delivery_count: 0, pumping_count: 0 });
      now = NOW + MINUTE_MS;
      expect(await retention().sweep()).toMatchObject({ delivery_count: 1, pumping_count: 1 });
      expect(await minutesOf(DeliveryCount)).toEqual([]);
      expect(await minutesOf(PumpingCount)).toEqual([]);
    });

    // MySQL only: on SQLite one instance runs, and there is no lock to hold.
    if (process.env.TEST_DATABASE === 'mysql') {
      it('should delete nothing while another instance holds the relay lock: one instance at a time', async () => {
        const { clientId } = await newClient();
        await count(clientId, '+44740012xxxx', NOW_MINUTE - 61);
        const holder = t.dataSource.createQueryRunner();
        await holder.connect();
        try {
          await holder.startTransaction();
          await holder.query("SELECT name FROM outbox_relay_lock WHERE name = 'relay' FOR UPDATE");
          expect(await retention().sweep(NOW)).toEqual({ delivery_count: 0, pumping_count: 0, pumping_baseline: 0, pumping_range: 0 });
          await holder.commitTransaction();
        } finally {
          await holder.release();
        }
        expect(await retention().sweep(NOW)).toMatchObject({ pumping_count: 1 });
      });
    }
  });
});
