import { Clock } from '../src/common/clock';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';
import { metricOf, metricReaches } from './helpers/metrics';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const MINUTE = 60_000;
const WINDOW = 900_000;
// 30 s into a minute: the window's edges are at whole minutes.
const T0 = Date.UTC(2026, 10, 20, 10, 0, 30);

/**
 * Delivery receipts on outcome reports, and route's deliveryRate per configuration and calling code: two instances on
 * one database, reports on one and route on the other, with a clock both share.
 */
describe('Delivery rates: receipts on outcomes, deliveryRate and demotion on route', () => {
  let a: TestApp;
  let b: TestApp;
  let now: number | null = null;

  beforeAll(async () => {
    const url = await testDatabaseUrl();
    a = await startTestApp({ DATABASE_URL: url });
    b = await startTestApp({ DATABASE_URL: url }, { keepData: true });
    await approveProviderHosts(a);
    for (const app of [a, b]) jest.spyOn(app.app.get(Clock), 'now').mockImplementation(() => now ?? Date.now());
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });
  beforeEach(() => {
    now = T0;
  });

  async function newClient(fields: Record<string, unknown> = {}) {
    const appName = `rates-${Math.random().toString(36).slice(2)}`;
    const secretKey = await a.addClient({ appName, ...fields });
    const clientId = (await a.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    return { secretKey, clientId };
  }

  async function addConfig(secretKey: string, fields: Record<string, unknown> = {}): Promise<number> {
    const added = await a.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig({ balance: 1000, ...fields }) });
    expect(added.status).toBe(200);
    const list = (await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
    return list[list.length - 1].smsConfigId as number;
  }

  const report = (app: TestApp, body: Record<string, unknown>) => app.post('/api/v1/dispatch/outcomes', { headers: DISPATCHER, body });
  async function receipts(smsConfigId: number, destination: string | undefined, delivered: number, undelivered: number) {
    const answer = await report(a, { smsConfigId, sent: 0, failed: 0, delivered, undelivered, ...(destination && { destination }) });
    expect(answer.status).toBe(200);
  }
  async function routed(app: TestApp, secretKey: string, body?: Record<string, unknown>) {
    const answer = await app.post('/api/v1/dispatch/route', { headers: { ...DISPATCHER, secretKey }, body });
    expect(answer.status).toBe(200);
    return answer.body.results.candidates as Array<{ smsConfigId: number; deliveryRate?: number | null }>;
  }
  const ratesOf = async (app: TestApp, secretKey: string, destination: string) =>
    (await routed(app, secretKey, { destination })).map(({ smsConfigId, deliveryRate }) => [smsConfigId, deliveryRate]);

  describe('on outcome reports', () => {
    it.each([
      [{ delivered: -1 }, 'delivered must be an integer from 0 to 100000'],
      [{ undelivered: 100001 }, 'undelivered must be an integer from 0 to 100000'],
      [{ codesSent: 1.5 }, 'codesSent must be an integer from 0 to 100000'],
      [{ verified: '3' }, 'verified must be an integer from 0 to 100000'],
      [{ sent: 3, codesSent: 4 }, 'codesSent must not be more than sent'],
      [
        { delivered: 0, undelivered: 0, codesSent: 0, verified: 0 },
        'a report must give one count >= 1 (sent, failed, delivered, undelivered, codesSent or verified) or balance',
      ],
    ])('should refuse %p with 400 naming the problem', async (fields, error) => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey);
      expect((await report(a, { smsConfigId, sent: 0, failed: 0, ...fields })).body).toEqual({ status: 400, error });
    });

    it('should take a report of receipts alone and leave the balance, the health and the day’s sums as they were', async () => {
      const { secretKey, clientId } = await newClient();
      const smsConfigId = await addConfig(secretKey, { perSmsCost: 0.5 });
      const answer = await report(a, {
        smsConfigId,
        sent: 0,
        failed: 0,
        delivered: 7,
        undelivered: 3,
        codesSent: 0,
        verified: 2,
        destination: '+447400123456',
      });
      expect(answer.body).toEqual({ status: 200, results: { smsConfigId, balance: 1000, healthy: true, unhealthyUntil: null } });
      const view = (await a.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results;
      expect(view).toMatchObject({ spentToday: 0, sentToday: 0 });
    });
  });

  describe('on route', () => {
    it('should show a rate only from DELIVERY_RATE_MIN_RECEIPTS receipts, floored to 4 decimals, on the other instance at once', async () => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey);
      await receipts(smsConfigId, '+447400123456', 13, 6);
      expect(await ratesOf(b, secretKey, '+447911000001')).toEqual([[smsConfigId, null]]);
      await receipts(smsConfigId, '+447400123456', 0, 1);
      expect(await ratesOf(b, secretKey, '+447911000001')).toEqual([[smsConfigId, 0.65]]);
      await receipts(smsConfigId, '+447400123456', 7, 2);
      // 20 of 29: 0.68965…
      expect(await ratesOf(b, secretKey, '+447911000001')).toEqual([[smsConfigId, 0.6896]]);
    });

    it('should count by calling code: +44 with its Crown Dependencies, +1 as one country, an unknown code not at all', async () => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey);
      await receipts(smsConfigId, '+447400123456', 20, 0);
      await receipts(smsConfigId, '+12025550123', 10, 10);
      await receipts(smsConfigId, '+999123456789', 30, 0);
      // Jersey, Guernsey, the Isle of Man and the UK share +44.
      expect(await ratesOf(a, secretKey, '+447797123456')).toEqual([[smsConfigId, 1]]);
      expect(await ratesOf(a, secretKey, '+441481123456')).toEqual([[smsConfigId, 1]]);
      // Canada and Jamaica are +1, as the United States is.
      expect(await ratesOf(a, secretKey, '+14165550123')).toEqual([[smsConfigId, 0.5]]);
      expect(await ratesOf(a, secretKey, '+18765550123')).toEqual([[smsConfigId, 0.5]]);
      expect(await ratesOf(a, secretKey, '+33612345678')).toEqual([[smsConfigId, null]]);
      // Route takes no number of an unknown code, and the receipts to one were counted at no calling code.
      const unknown = await a.post('/api/v1/dispatch/route', {
        headers: { ...DISPATCHER, secretKey },
        body: { destination: '+999123456780' },
      });
      expect(unknown.body).toEqual({ status: 400, error: 'destination must be a possible E.164 number (+<calling code><number>)' });
      const codes = await a.dataSource.query('SELECT calling_code AS code FROM delivery_count WHERE sms_config_id = ? ORDER BY 1', [
        smsConfigId,
      ]);
      expect(codes.map(({ code }: { code: string }) => code)).toEqual(['1', '44']);
    });

    it('should count only reports with a destination, and show no rate without one', async () => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey);
      await receipts(smsConfigId, undefined, 50, 0);
      expect(await ratesOf(a, secretKey, '+447400123456')).toEqual([[smsConfigId, null]]);
      await receipts(smsConfigId, '+447400123456', 50, 0);
      const candidates = await routed(a, secretKey);
      expect(candidates.map((candidate) => Object.keys(candidate))).toEqual([
        ['smsConfigId', 'providerName', 'smsApi', 'senderId', 'smsType', 'balance', 'perSmsCost', 'verifyApiKey'],
      ]);
      expect(Object.keys((await routed(a, secretKey, { destination: '+447400123456' }))[0])).toEqual([
        'smsConfigId',
        'providerName',
        'smsApi',
        'senderId',
        'smsType',
        'balance',
        'perSmsCost',
        'pricePrefix',
        'deliveryRate',
        'verifyApiKey',
      ]);
    });

    it('should count receipts in the minutes that start in the last DELIVERY_RATE_WINDOW_MS', async () => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey);
      const minuteStart = T0 - 30_000;
      await receipts(smsConfigId, '+447400123456', 20, 0);
      now = minuteStart + 5 * MINUTE;
      await receipts(smsConfigId, '+447400123456', 0, 20);
      now = minuteStart + WINDOW - 1;
      expect(await ratesOf(a, secretKey, '+447400123456')).toEqual([[smsConfigId, 0.5]]);
      // The first minute's start is no longer in (now − W, now].
      now = minuteStart + WINDOW;
      expect(await ratesOf(a, secretKey, '+447400123456')).toEqual([[smsConfigId, 0]]);
      now = minuteStart + 5 * MINUTE + WINDOW;
      expect(await ratesOf(a, secretKey, '+447400123456')).toEqual([[smsConfigId, null]]);
    });

    it('should put candidates under DELIVERY_RATE_DEMOTE_BELOW after the others, before those offered again, the preferred one too', async () => {
      const demotedBefore = await metricOf(a, 'dispatch_route_demotions_total');
      const undeliveredBefore = await metricOf(a, 'dispatch_delivery_signals_total{kind="undelivered"}');
      const { secretKey } = await newClient({ preferredSmsGateway: 'preferred' });
      const preferred = await addConfig(secretKey, { providerName: 'preferred', perSmsCost: 0.01 });
      const cheap = await addConfig(secretKey, { providerName: 'cheap', perSmsCost: 0.02 });
      const dear = await addConfig(secretKey, { providerName: 'dear', perSmsCost: 0.03 });
      const unrated = await addConfig(secretKey, { providerName: 'unrated', perSmsCost: 0.04 });
      const recovering = await addConfig(secretKey, { providerName: 'recovering', perSmsCost: 0.001 });
      expect((await report(a, { smsConfigId: recovering, sent: 0, failed: 5 })).body.results.healthy).toBe(false);
      await receipts(preferred, '+447400123456', 15, 5);
      await receipts(cheap, '+447400123456', 16, 4);
      await receipts(dear, '+447400123456', 79, 21);
      await receipts(recovering, '+447400123456', 0, 20);
      const order = async () => (await routed(b, secretKey, { destination: '+447400123456' })).map((c) => [c.smsConfigId, c.deliveryRate]);
      expect(await order()).toEqual([
        [cheap, 0.8],
        [unrated, null],
        [preferred, 0.75],
        [dear, 0.79],
      ]);
      await metricReaches(a, 'dispatch_route_demotions_total', demotedBefore + 2);
      await metricReaches(a, 'dispatch_delivery_signals_total{kind="undelivered"}', undeliveredBefore + 5 + 4 + 21 + 20);
      // Offered again after DISPATCH_UNHEALTHY_MS: last, whatever its rate.
      now = T0 + 31_000;
      expect((await order()).map(([id]) => id)).toEqual([cheap, unrated, preferred, dear, recovering]);
      // Another country has no rate: the order of prices, the preferred gateway first.
      expect((await routed(a, secretKey, { destination: '+33612345678' })).map((c) => c.smsConfigId)).toEqual([
        preferred,
        cheap,
        dear,
        unrated,
        recovering,
      ]);
    });

    it('should count rates whatever the client’s pumpingGuard', async () => {
      const { secretKey, clientId } = await newClient();
      expect((await a.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { pumpingGuard: 'off' } })).status).toBe(200);
      const smsConfigId = await addConfig(secretKey);
      await receipts(smsConfigId, '+447400123456', 10, 10);
      expect(await ratesOf(a, secretKey, '+447400123456')).toEqual([[smsConfigId, 0.5]]);
    });

    it('should delete a configuration’s receipts with it', async () => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey);
      await receipts(smsConfigId, '+447400123456', 10, 10);
      const countRows = async () =>
        Number((await a.dataSource.query('SELECT COUNT(*) AS n FROM delivery_count WHERE sms_config_id = ?', [smsConfigId]))[0].n);
      expect(await countRows()).toBe(1);
      expect((await a.send('DELETE', `/api/v1/sms-configs/${smsConfigId}`, { headers: { secretKey } })).status).toBe(200);
      expect(await countRows()).toBe(0);
    });
  });

  it('should answer 200 to 1,000 concurrent reports with receipts over two instances and count every one', async () => {
    now = null;
    const { secretKey, clientId } = await newClient();
    const first = await addConfig(secretKey);
    const second = await addConfig(secretKey);
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, index) =>
        report(index % 2 === 0 ? a : b, {
          smsConfigId: index % 4 < 2 ? first : second,
          sent: 1,
          failed: 0,
          delivered: index % 5 === 0 ? 0 : 1,
          undelivered: index % 5 === 0 ? 1 : 0,
          codesSent: 1,
          verified: index % 2,
          destination: `+4474001${String(index % 50).padStart(5, '0')}`,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const sums = async (sql: string, id: number) => (await a.dataSource.query(sql, [id]))[0];
    const all = await a.dataSource.query(
      'SELECT SUM(delivered) AS delivered, SUM(undelivered) AS undelivered FROM delivery_count WHERE sms_config_id IN (?, ?)',
      [first, second],
    );
    expect({ delivered: Number(all[0].delivered), undelivered: Number(all[0].undelivered) }).toEqual({ delivered: 800, undelivered: 200 });
    const codes = await sums(
      'SELECT SUM(sent) AS sent, SUM(codes_sent) AS codes, SUM(verified) AS verified FROM pumping_count WHERE client_id = ?',
      clientId,
    );
    expect({ sent: Number(codes.sent), codes: Number(codes.codes), verified: Number(codes.verified) }).toEqual({
      sent: 1000,
      codes: 1000,
      verified: 500,
    });
    expect((await a.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results.sentToday).toBe(1000);
  });
});
