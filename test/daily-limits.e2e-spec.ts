import { sha256Hex } from '../src/auth/digest';
import { Clock } from '../src/common/clock';
import { EventConsumer } from './helpers/event-consumer';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';
import { metricOf, metricReaches } from './helpers/metrics';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const DISPATCHER_ACTOR = `dispatcher:${sha256Hex(DISPATCHER_API_KEY).slice(0, 8)}`;
const AMOUNT_RULE = 'must be a number >= 0 and < 1000000000000 with at most 6 decimal places';
const SMS_LIMIT_RULE = 'dailySmsLimit must be an integer from 1 to 100000000';

/**
 * Daily limits against SMS pumping, on two instances over one database: reports on one, route on the other, and a
 * clock both instances share that the tests move across midnight UTC.
 */
describe('Daily limits: spentToday, sentToday, dailySpendLimit, dailySmsLimit', () => {
  let a: TestApp;
  let b: TestApp;
  let events: EventConsumer;
  let now: number | null = null;

  beforeAll(async () => {
    const url = await testDatabaseUrl();
    a = await startTestApp({ DATABASE_URL: url });
    b = await startTestApp({ DATABASE_URL: url }, { keepData: true });
    await approveProviderHosts(a);
    // Time as the tests set it, else the real one.
    for (const app of [a, b]) jest.spyOn(app.app.get(Clock), 'now').mockImplementation(() => now ?? Date.now());
    // Two instances on one SQLite file may both publish an entry, with its message-id (docs/events.md).
    events = await EventConsumer.bind('client.daily-limit-reached', undefined, { repeatsDropped: process.env.TEST_DATABASE === 'sqlite' });
  });
  afterAll(async () => {
    await events.close();
    await b.close();
    await a.close();
  });
  afterEach(() => {
    now = null;
  });

  async function newClient(limits: Record<string, unknown> = {}) {
    const appName = `daily-${Math.random().toString(36).slice(2)}`;
    const secretKey = await a.addClient({ appName });
    const clientId = (await a.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    if (Object.keys(limits).length > 0) expect((await change(clientId, limits)).status).toBe(200);
    return { secretKey, clientId };
  }

  async function addConfig(secretKey: string, fields: Record<string, unknown> = {}): Promise<number> {
    const added = await a.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig({ balance: 1000, ...fields }) });
    expect(added.status).toBe(200);
    const list = (await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
    return list[list.length - 1].smsConfigId as number;
  }

  const change = (clientId: number, body: unknown) => a.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body });
  const viewOf = async (app: TestApp, clientId: number) => (await app.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results;
  const report = (app: TestApp, body: Record<string, unknown>) => app.post('/api/v1/dispatch/outcomes', { headers: DISPATCHER, body });
  const route = (app: TestApp, secretKey: string, body?: unknown) =>
    app.post('/api/v1/dispatch/route', { headers: { ...DISPATCHER, secretKey }, body });
  const routed = async (app: TestApp, secretKey: string, body?: unknown) => {
    const answer = await route(app, secretKey, body);
    expect(answer.status).toBe(200);
    return {
      candidates: answer.body.results.candidates.map((candidate: { smsConfigId: number }) => candidate.smsConfigId),
      skipped: answer.body.results.skipped,
    };
  };
  const limitEntries = async (clientId: number) =>
    (await a.get(`/api/v1/audit-events?clientId=${clientId}&action=client.daily-limit-reached`, ADMIN)).body.results.items;

  describe('set by admins', () => {
    it('should show the limits and the day’s sums in the admin view, audit a change, and clear the limits with null', async () => {
      const { clientId } = await newClient();
      expect(await viewOf(a, clientId)).toMatchObject({ dailySpendLimit: null, dailySmsLimit: null, spentToday: 0, sentToday: 0 });

      const set = await change(clientId, { dailySpendLimit: 250.000001, dailySmsLimit: 20000 });
      expect(set.status).toBe(200);
      expect(set.body.results).toMatchObject({ dailySpendLimit: 250.000001, dailySmsLimit: 20000, spentToday: 0, sentToday: 0 });
      expect(await viewOf(b, clientId)).toMatchObject({ dailySpendLimit: 250.000001, dailySmsLimit: 20000 });
      const audit = await a.get(`/api/v1/audit-events?clientId=${clientId}&action=client.updated`, ADMIN);
      expect(audit.body.results.items.map((entry: { changed: string[] }) => entry.changed)).toEqual([['dailySpendLimit', 'dailySmsLimit']]);

      // The same values again change nothing.
      expect((await change(clientId, { dailySpendLimit: 250.000001, dailySmsLimit: 20000 })).status).toBe(200);
      expect((await a.get(`/api/v1/audit-events?clientId=${clientId}&action=client.updated`, ADMIN)).body.results.items).toHaveLength(1);

      const cleared = await change(clientId, { dailySpendLimit: null, dailySmsLimit: null });
      expect(cleared.body.results).toMatchObject({ dailySpendLimit: null, dailySmsLimit: null });
    });

    it.each([
      [{ dailySpendLimit: -1 }, `dailySpendLimit ${AMOUNT_RULE}`],
      [{ dailySpendLimit: 0.0000001 }, `dailySpendLimit ${AMOUNT_RULE}`],
      [{ dailySpendLimit: 1e12 }, `dailySpendLimit ${AMOUNT_RULE}`],
      [{ dailySpendLimit: '5' }, `dailySpendLimit ${AMOUNT_RULE}`],
      [{ dailySmsLimit: 0 }, SMS_LIMIT_RULE],
      [{ dailySmsLimit: 100000001 }, SMS_LIMIT_RULE],
      [{ dailySmsLimit: 1.5 }, SMS_LIMIT_RULE],
      [{ dailySmsLimit: '10' }, SMS_LIMIT_RULE],
      [{ spentToday: 0 }, 'property spentToday should not exist'],
    ])('should refuse %j with 400 naming the problem, and change nothing', async (body, error) => {
      const { clientId } = await newClient();
      const answer = await change(clientId, body);
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { status: 400, error } });
      expect(await viewOf(a, clientId)).toMatchObject({ dailySpendLimit: null, dailySmsLimit: null });
    });

    it('should accept the widest limits', async () => {
      const { clientId } = await newClient();
      const answer = await change(clientId, { dailySpendLimit: 999999999999.999, dailySmsLimit: 100000000 });
      expect(answer.body.results).toMatchObject({ dailySpendLimit: 999999999999.999, dailySmsLimit: 100000000 });
    });
  });

  describe('kept as reports land', () => {
    it('should sum price × sent exactly, at the destination’s price, whether or not a report also sets the balance', async () => {
      const { secretKey, clientId } = await newClient();
      const flat = await addConfig(secretKey, { perSmsCost: 0.000001 });
      const priced = await addConfig(secretKey, { perSmsCost: 0.05, destinationPrices: [{ prefix: '44', perSmsCost: 0.031 }] });
      expect((await report(a, { smsConfigId: flat, sent: 7, failed: 2 })).status).toBe(200);
      expect((await report(b, { smsConfigId: priced, sent: 3, failed: 0, destination: '+447700900123' })).status).toBe(200);
      expect((await report(a, { smsConfigId: priced, sent: 2, failed: 0, balance: 12.5 })).status).toBe(200);
      // Failures alone count nothing.
      expect((await report(b, { smsConfigId: priced, sent: 0, failed: 4 })).status).toBe(200);
      // 7 × 0.000001 + 3 × 0.031 + 2 × 0.05
      expect(await viewOf(b, clientId)).toMatchObject({ spentToday: 0.193007, sentToday: 12 });
    });

    it('should count a report retried with its Idempotency-Key once', async () => {
      const { secretKey, clientId } = await newClient();
      const id = await addConfig(secretKey, { perSmsCost: 0.02 });
      const headers = { ...DISPATCHER, 'idempotency-key': `batch-${clientId}` };
      const body = { smsConfigId: id, sent: 5, failed: 0 };
      const first = await a.post('/api/v1/dispatch/outcomes', { headers, body });
      const retried = await b.post('/api/v1/dispatch/outcomes', { headers, body });
      expect([first.status, retried.status, retried.headers['idempotent-replayed']]).toEqual([200, 200, 'true']);
      expect(await viewOf(a, clientId)).toMatchObject({ spentToday: 0.1, sentToday: 5 });
    });

    it('should count all of 1,000 concurrent reports on two instances, each answered 200', async () => {
      const { secretKey, clientId } = await newClient();
      const id = await addConfig(secretKey, { balance: 1000, perSmsCost: 0.001 });
      const answers = await Promise.all(
        Array.from({ length: 1000 }, (_, index) => report(index % 2 === 0 ? a : b, { smsConfigId: id, sent: 1, failed: 0 })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(1000).fill(200));
      expect(new Set(answers.map((answer) => answer.body.results.balance)).size).toBe(1000);
      expect(await viewOf(a, clientId)).toMatchObject({ spentToday: 1, sentToday: 1000 });
      expect((await viewOf(a, clientId)).spentToday).toBe(1);
    });
    it('should take reports while the client changes the configuration and an admin its limits, with no deadlock', async () => {
      const { secretKey, clientId } = await newClient({ dailySmsLimit: 100000 });
      const id = await addConfig(secretKey, { balance: 1000, perSmsCost: 0.01 });
      // A change of a configuration locks its client's row, then its own: a report must take them in that order too.
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, index) => {
          if (index % 15 === 7) {
            return a.send('PATCH', `/api/v1/sms-configs/${id}`, { headers: { secretKey }, body: { senderId: `S${index}` } });
          }
          if (index % 15 === 11) return change(clientId, { dailySmsLimit: 100000 + index });
          return report(index % 2 === 0 ? a : b, { smsConfigId: id, sent: 1, failed: 0 });
        }),
      );
      expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.raw)).toEqual([]);
      expect(await viewOf(a, clientId)).toMatchObject({ spentToday: 2.6, sentToday: 260 });
    });
  });

  describe('on route', () => {
    it('should route exactly at the spend limit, and past it skip with spend-limit only the configurations it stops', async () => {
      const { secretKey, clientId } = await newClient({ dailySpendLimit: 1 });
      const cheap = await addConfig(secretKey, { perSmsCost: 0.01 });
      const dear = await addConfig(secretKey, { perSmsCost: 0.1 });
      // 0.9 spent: 10 messages at 0.01 reach 1 exactly, 2 at 0.1 would pass it.
      await report(a, { smsConfigId: dear, sent: 9, failed: 0 });
      expect(await routed(b, secretKey, { count: 10 })).toEqual({
        candidates: [cheap],
        skipped: [{ smsConfigId: dear, reason: 'spend-limit' }],
      });
      expect(await routed(b, secretKey, { count: 11 })).toEqual({
        candidates: [],
        skipped: [
          { smsConfigId: cheap, reason: 'spend-limit' },
          { smsConfigId: dear, reason: 'spend-limit' },
        ],
      });
      expect((await routed(b, secretKey, { count: 1 })).candidates).toEqual([cheap, dear]);
      expect(await viewOf(a, clientId)).toMatchObject({ spentToday: 0.9, sentToday: 9 });
    });

    it('should price the spend limit at the destination', async () => {
      const { secretKey } = await newClient({ dailySpendLimit: 0.5 });
      const id = await addConfig(secretKey, { perSmsCost: 0.01, destinationPrices: [{ prefix: '44', perSmsCost: 0.25 }] });
      expect((await routed(b, secretKey, { count: 2, destination: '+447700900123' })).candidates).toEqual([id]);
      expect((await routed(b, secretKey, { count: 3, destination: '+447700900123' })).skipped).toEqual([
        { smsConfigId: id, reason: 'spend-limit' },
      ]);
      expect((await routed(b, secretKey, { count: 3, destination: '+33612345678' })).candidates).toEqual([id]);
    });

    it('should skip every configuration with sms-limit past the message limit, whatever the prices, after inactive and smsType', async () => {
      const { secretKey } = await newClient({ dailySmsLimit: 10 });
      const free = await addConfig(secretKey, { perSmsCost: 0 });
      const inactive = await addConfig(secretKey, { perSmsCost: 0, isActive: false });
      const otherType = await addConfig(secretKey, { perSmsCost: 0, smsType: 'Promotional' });
      await report(a, { smsConfigId: free, sent: 8, failed: 0 });
      expect((await routed(b, secretKey, { count: 2, smsType: 'Transactional' })).candidates).toEqual([free]);
      const skippedBefore = await metricOf(a, 'dispatch_route_skips_total{reason="sms-limit"}');
      expect(await routed(b, secretKey, { count: 3, smsType: 'Transactional' })).toEqual({
        candidates: [],
        skipped: [
          { smsConfigId: free, reason: 'sms-limit' },
          { smsConfigId: inactive, reason: 'inactive' },
          { smsConfigId: otherType, reason: 'smsType' },
        ],
      });
      await metricReaches(a, 'dispatch_route_skips_total{reason="sms-limit"}', skippedBefore + 1);
    });

    it('should see a report made on one instance in the next route on the other', async () => {
      const { secretKey, clientId } = await newClient({ dailySmsLimit: 5 });
      const id = await addConfig(secretKey);
      expect((await routed(b, secretKey, { count: 5 })).candidates).toEqual([id]);
      await report(a, { smsConfigId: id, sent: 1, failed: 0 });
      expect((await routed(b, secretKey, { count: 5 })).skipped).toEqual([{ smsConfigId: id, reason: 'sms-limit' }]);
      // A limit raised on one instance holds on the other's next route.
      await change(clientId, { dailySmsLimit: 6 });
      expect((await routed(b, secretKey, { count: 5 })).candidates).toEqual([id]);
    });

    it('should answer route and reports for a client without limits as before', async () => {
      const { secretKey } = await newClient();
      const id = await addConfig(secretKey, { balance: 1000000, perSmsCost: 0.001 });
      await report(a, { smsConfigId: id, sent: 100000, failed: 0 });
      expect(await routed(b, secretKey, { count: 10000 })).toEqual({ candidates: [id], skipped: [] });
    });
  });

  describe('the day', () => {
    it('should start a new day at 00:00 UTC on every instance, with no job run', async () => {
      const { secretKey, clientId } = await newClient({ dailySmsLimit: 3 });
      const id = await addConfig(secretKey, { perSmsCost: 0.5 });
      now = Date.parse('2026-11-26T23:59:59.999Z');
      await report(a, { smsConfigId: id, sent: 3, failed: 0 });
      expect(await viewOf(b, clientId)).toMatchObject({ spentToday: 1.5, sentToday: 3 });
      expect((await routed(b, secretKey)).skipped).toEqual([{ smsConfigId: id, reason: 'sms-limit' }]);

      now = Date.parse('2026-11-27T00:00:00.000Z');
      expect(await viewOf(b, clientId)).toMatchObject({ spentToday: 0, sentToday: 0 });
      expect((await routed(b, secretKey)).candidates).toEqual([id]);
      await report(b, { smsConfigId: id, sent: 1, failed: 0 });
      expect(await viewOf(a, clientId)).toMatchObject({ spentToday: 0.5, sentToday: 1 });
    });

    it('should record and publish client.daily-limit-reached once per client, limit and day, by the report that reaches it', async () => {
      const { secretKey, clientId } = await newClient({ dailySpendLimit: 1, dailySmsLimit: 4 });
      const id = await addConfig(secretKey, { perSmsCost: 0.25 });
      const reachedBefore = await metricOf(a, 'dispatch_daily_limits_reached_total{limit="dailySpendLimit"}');
      now = Date.parse('2026-11-26T08:00:00.000Z');
      await report(a, { smsConfigId: id, sent: 3, failed: 0 });
      expect(await limitEntries(clientId)).toEqual([]);
      // 1 spent and 4 sent: both limits reached by the same report, exactly at them.
      await report(b, { smsConfigId: id, sent: 1, failed: 0 });
      await report(a, { smsConfigId: id, sent: 5, failed: 0 });
      await change(clientId, { dailySpendLimit: 2 });
      await report(b, { smsConfigId: id, sent: 10, failed: 0 });

      const entries = await limitEntries(clientId);
      expect(entries.map((entry: { changed: string[] }) => entry.changed).sort()).toEqual([['dailySmsLimit'], ['dailySpendLimit']]);
      for (const entry of entries) {
        expect(entry).toMatchObject({ action: 'client.daily-limit-reached', actor: DISPATCHER_ACTOR, clientId, smsConfigId: id });
      }
      const published = await events.waitFor((body) => body.clientId === clientId, 2);
      expect(published.map((event) => event.body.changed).sort()).toEqual([['dailySmsLimit'], ['dailySpendLimit']]);
      await metricReaches(a, 'dispatch_daily_limits_reached_total{limit="dailySpendLimit"}', reachedBefore + 1);

      // The next day, the first report past a limit records it again.
      now = Date.parse('2026-11-27T00:00:01.000Z');
      await report(a, { smsConfigId: id, sent: 4, failed: 0 });
      expect((await limitEntries(clientId)).map((entry: { changed: string[] }) => entry.changed)).toEqual([
        ['dailySmsLimit'],
        ...entries.map((entry: { changed: string[] }) => entry.changed),
      ]);
    });
  });

  it('should leave get-client’s and the seed list’s answers without the limits or the sums', async () => {
    const { secretKey, clientId } = await newClient({ dailySpendLimit: 5, dailySmsLimit: 5 });
    const id = await addConfig(secretKey);
    await report(a, { smsConfigId: id, sent: 2, failed: 0 });
    expect((await viewOf(a, clientId)).sentToday).toBe(2);
    const answer = (await a.post('/api/client/get/secretKey', { headers: { secretKey } })).raw;
    const list = (await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).raw;
    for (const raw of [answer, list]) expect(raw).not.toMatch(/daily|spentToday|sentToday/);
  });
});
