import { sha256Hex } from '../src/auth/digest';
import { Clock } from '../src/common/clock';
import { EventConsumer } from './helpers/event-consumer';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';
import { metricOf, metricReaches } from './helpers/metrics';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const DISPATCHER_ACTOR = `dispatcher:${sha256Hex(DISPATCHER_API_KEY).slice(0, 8)}`;
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
// 30 s into a minute, on a Friday in UTC.
const T0 = Date.UTC(2026, 10, 20, 10, 0, 30);
const NUMBER = '+447400123456';
const RANGE = '+44740012xxxx';
const SAME_RANGE = '+447400129876';
const OTHER_RANGE = '+447400130000';

const pumpingEventOf = (clientId: number) => (body: { clientId: number; action: string }) =>
  body.clientId === clientId && body.action.startsWith('client.pumping-');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Guard = 'off' | 'monitor' | 'block';

/**
 * The pumping guard with its defaults (PUMPING_MIN_SENT 20, PUMPING_VELOCITY_FACTOR 2, PUMPING_MIN_CONVERSION 0.2, a
 * 2-minute grace, 1-hour window and block): reports on one instance, route on the other, a clock both share.
 */
describe('Pumping guard: velocity and conversion per range, monitor and block, premium numbers', () => {
  let a: TestApp;
  let b: TestApp;
  let events: EventConsumer;
  let now: number | null = null;

  beforeAll(async () => {
    const url = await testDatabaseUrl();
    a = await startTestApp({ DATABASE_URL: url });
    b = await startTestApp({ DATABASE_URL: url }, { keepData: true });
    await approveProviderHosts(a);
    for (const app of [a, b]) jest.spyOn(app.app.get(Clock), 'now').mockImplementation(() => now ?? Date.now());
    events = await EventConsumer.bind('client.#', undefined, { repeatsDropped: process.env.TEST_DATABASE === 'sqlite' });
  });
  afterAll(async () => {
    await events.close();
    await b.close();
    await a.close();
  });
  beforeEach(() => {
    now = T0;
  });

  async function newClient(pumpingGuard: Guard = 'monitor', settings: Record<string, unknown> = {}) {
    const appName = `pumping-${Math.random().toString(36).slice(2)}`;
    const secretKey = await a.addClient({ appName });
    const clientId = (await a.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    const changes = { ...(pumpingGuard !== 'monitor' && { pumpingGuard }), ...settings };
    if (Object.keys(changes).length > 0) expect((await change(clientId, changes)).status).toBe(200);
    const added = await a.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig({ balance: 100000 }) });
    expect(added.status).toBe(200);
    const smsConfigId = (await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results[0]
      .smsConfigId as number;
    return { secretKey, clientId, smsConfigId };
  }

  const change = (clientId: number, body: unknown) => a.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body });
  async function report(app: TestApp, smsConfigId: number, destination: string, counts: Record<string, number>) {
    const answer = await app.post('/api/v1/dispatch/outcomes', {
      headers: DISPATCHER,
      body: { smsConfigId, sent: 0, failed: 0, destination, ...counts },
    });
    expect(answer.status).toBe(200);
  }
  const route = (app: TestApp, secretKey: string, body?: unknown) =>
    app.post('/api/v1/dispatch/route', { headers: { ...DISPATCHER, secretKey }, body });
  const suspicionsOf = async (clientId: number) =>
    (await a.get(`/api/v1/audit-events?clientId=${clientId}`, ADMIN)).body.results.items.filter((entry: { action: string }) =>
      entry.action.startsWith('client.pumping-'),
    );
  const signalsOf = async (clientId: number) => (await suspicionsOf(clientId)).map((entry: { changed: string[] }) => entry.changed);
  const rowCount = async (table: string, clientId: number) =>
    Number((await a.dataSource.query(`SELECT COUNT(*) AS n FROM ${table} WHERE client_id = ?`, [clientId]))[0].n);

  describe('velocity', () => {
    it('should suspect a new client’s range past PUMPING_MIN_SENT in the window once, audited and published, and refuse nothing in monitor', async () => {
      const before = await metricOf(a, 'dispatch_pumping_suspicions_total{signal="velocity",mode="monitor"}');
      const { secretKey, clientId, smsConfigId } = await newClient();
      await report(a, smsConfigId, NUMBER, { sent: 20 });
      expect(await suspicionsOf(clientId)).toEqual([]);
      await report(b, smsConfigId, SAME_RANGE, { sent: 1 });
      const [entry] = await suspicionsOf(clientId);
      expect(entry).toMatchObject({
        action: 'client.pumping-suspected',
        actor: DISPATCHER_ACTOR,
        clientId,
        smsConfigId,
        changed: ['velocity'],
        details: { range: RANGE },
      });
      const [published] = await events.waitFor(pumpingEventOf(clientId), 1);
      expect(published.body).toMatchObject({ action: 'client.pumping-suspected', changed: ['velocity'], details: { range: RANGE } });
      // Standing: more of the same range makes no second suspicion.
      await report(a, smsConfigId, NUMBER, { sent: 50 });
      expect(await signalsOf(clientId)).toEqual([['velocity']]);
      expect((await route(b, secretKey, { destination: NUMBER })).status).toBe(200);
      await metricReaches(a, 'dispatch_pumping_suspicions_total{signal="velocity",mode="monitor"}', before + 1);
    });

    it('should compare with B, the highest window of the 7 days before today, counting in monitor all but the report that starts a suspicion', async () => {
      const { clientId, smsConfigId } = await newClient();
      now = T0 - DAY;
      await report(a, smsConfigId, NUMBER, { sent: 20 });
      await report(a, smsConfigId, NUMBER, { sent: 10 });
      expect(await signalsOf(clientId)).toEqual([['velocity']]);
      await report(a, smsConfigId, NUMBER, { sent: 5 });
      // Today: B = 35, so 70 in the window is allowed and 71 is not; today's own highs do not count.
      now = T0;
      await report(b, smsConfigId, OTHER_RANGE, { sent: 70 });
      expect(await suspicionsOf(clientId)).toHaveLength(1);
      await report(b, smsConfigId, '+447400140000', { sent: 71 });
      expect((await suspicionsOf(clientId))[0]).toMatchObject({ changed: ['velocity'], details: { range: '+44740014xxxx' } });
      await report(b, smsConfigId, OTHER_RANGE, { sent: 1 });
      expect((await suspicionsOf(clientId))[0]).toMatchObject({ details: { range: '+44740013xxxx' } });
    });

    it('should not let what a suspected range sends raise B in block', async () => {
      const { clientId, smsConfigId } = await newClient('block');
      now = T0 - DAY;
      await report(a, smsConfigId, NUMBER, { sent: 20 });
      await report(a, smsConfigId, NUMBER, { sent: 10 });
      await report(a, smsConfigId, NUMBER, { sent: 500 });
      expect(await signalsOf(clientId)).toEqual([['velocity']]);
      now = T0;
      await report(a, smsConfigId, OTHER_RANGE, { sent: 40 });
      expect(await suspicionsOf(clientId)).toHaveLength(1);
      await report(a, smsConfigId, OTHER_RANGE, { sent: 1 });
      expect((await suspicionsOf(clientId))[0]).toMatchObject({ action: 'client.pumping-blocked', details: { range: '+44740013xxxx' } });
    });

    it('should take B from the 7 UTC days before today, not the 8th', async () => {
      const { clientId, smsConfigId } = await newClient();
      now = T0 - 8 * DAY;
      await report(a, smsConfigId, NUMBER, { sent: 21 });
      await report(a, smsConfigId, NUMBER, { sent: 79 });
      now = T0 - 7 * DAY;
      await report(a, smsConfigId, OTHER_RANGE, { sent: 21 });
      expect(await suspicionsOf(clientId)).toHaveLength(1);
      // B = 21 (the 7th day before), not 100 (the 8th).
      now = T0;
      await report(a, smsConfigId, NUMBER, { sent: 42 });
      expect(await suspicionsOf(clientId)).toHaveLength(1);
      await report(a, smsConfigId, NUMBER, { sent: 1 });
      expect(await signalsOf(clientId)).toEqual([['velocity'], ['velocity']]);
    });
  });

  describe('conversion', () => {
    it('should leave codes of the last PUMPING_CONVERSION_GRACE_MS out, then suspect under PUMPING_MIN_CONVERSION, and not at it', async () => {
      const low = await newClient();
      const atBound = await newClient();
      await report(a, low.smsConfigId, NUMBER, { sent: 20, codesSent: 20, verified: 3 });
      await report(a, atBound.smsConfigId, NUMBER, { sent: 20, codesSent: 20, verified: 4 });
      // The minute of 10:00 is within the grace until 10:02:00.
      now = T0 + 90_000 - 1;
      await report(b, low.smsConfigId, NUMBER, { delivered: 1 });
      expect(await suspicionsOf(low.clientId)).toEqual([]);
      now = T0 + 90_000;
      await report(b, low.smsConfigId, NUMBER, { delivered: 1 });
      await report(b, atBound.smsConfigId, NUMBER, { delivered: 1 });
      expect((await suspicionsOf(low.clientId))[0]).toMatchObject({ changed: ['conversion'], details: { range: RANGE } });
      expect(await suspicionsOf(atBound.clientId)).toEqual([]);
    });

    it('should name both signals when one report shows both', async () => {
      const { clientId, smsConfigId } = await newClient();
      await report(a, smsConfigId, NUMBER, { sent: 20, codesSent: 20 });
      now = T0 + 2 * 60_000;
      await report(a, smsConfigId, SAME_RANGE, { sent: 1 });
      expect(await signalsOf(clientId)).toEqual([['velocity', 'conversion']]);
    });
  });

  describe('block', () => {
    it('should refuse a suspected range on the other instance at once, route other ranges, and require a destination, until PUMPING_BLOCK_MS ends', async () => {
      const { secretKey, clientId, smsConfigId } = await newClient('block');
      await report(a, smsConfigId, NUMBER, { sent: 21 });
      expect((await suspicionsOf(clientId))[0]).toMatchObject({ action: 'client.pumping-blocked', changed: ['velocity'] });
      const refused = await route(b, secretKey, { destination: SAME_RANGE });
      expect(refused.body).toEqual({
        status: 403,
        error: `destination ${SAME_RANGE} is in range ${RANGE}, blocked for suspected SMS pumping`,
      });
      expect((await route(b, secretKey, { destination: OTHER_RANGE })).status).toBe(200);
      expect((await route(b, secretKey)).body).toEqual({ status: 400, error: 'destination is required for this client' });
      now = T0 + HOUR - 1;
      expect((await route(b, secretKey, { destination: NUMBER })).status).toBe(403);
      now = T0 + HOUR;
      expect((await route(b, secretKey, { destination: NUMBER })).status).toBe(200);
      // In block, route always needs a destination to check; in monitor it does not.
      expect((await route(b, secretKey)).status).toBe(400);
      expect((await change(clientId, { pumpingGuard: 'monitor' })).status).toBe(200);
      expect((await route(b, secretKey)).status).toBe(200);
    });

    it('should refuse a range suspected in monitor once an admin switches the client to block, and route it again after a lift', async () => {
      const { secretKey, clientId, smsConfigId } = await newClient();
      await report(a, smsConfigId, NUMBER, { sent: 21 });
      expect((await route(b, secretKey, { destination: NUMBER })).status).toBe(200);
      expect((await change(clientId, { pumpingGuard: 'block' })).status).toBe(200);
      expect((await route(b, secretKey, { destination: NUMBER })).status).toBe(403);
      const [suspicion] = (await a.get(`/api/v1/pumping-ranges?clientId=${clientId}`, ADMIN)).body.results.items;
      expect(suspicion).toMatchObject({
        clientId,
        range: RANGE,
        signals: ['velocity'],
        sent: 21,
        codesSent: 0,
        verified: 0,
        liftedAt: null,
      });
      expect((await a.post(`/api/v1/pumping-ranges/${suspicion.pumpingRangeId}/lift`, { headers: ADMIN })).status).toBe(200);
      expect((await route(b, secretKey, { destination: NUMBER })).status).toBe(200);
      // The lift deleted the range's counts: one more message is not a 22nd.
      await report(a, smsConfigId, NUMBER, { sent: 1 });
      expect(await suspicionsOf(clientId)).toHaveLength(2);
    });

    it('should make one suspicion of concurrent reports on two instances that each cross the floor', async () => {
      const { clientId, smsConfigId } = await newClient('block');
      await report(a, smsConfigId, NUMBER, { sent: 19 });
      await Promise.all(Array.from({ length: 20 }, (_, index) => report(index % 2 ? a : b, smsConfigId, NUMBER, { sent: 1 })));
      expect(await signalsOf(clientId)).toEqual([['velocity']]);
      expect(await rowCount('pumping_range', clientId)).toBe(1);
      await events.waitFor(pumpingEventOf(clientId), 1);
      await sleep(300);
      expect(events.matching(pumpingEventOf(clientId))).toHaveLength(1);
    });
  });

  describe('number types', () => {
    it('should refuse premium-rate and shared-cost numbers unless allowed, and pass an untyped one', async () => {
      const before = await metricOf(a, 'dispatch_route_refusals_total{reason="number-type"}');
      const { secretKey, clientId } = await newClient();
      expect((await route(b, secretKey, { destination: '+19005551234' })).body).toEqual({
        status: 403,
        error: 'destination +19005551234 is a premium-rate number, not allowed for this client',
      });
      expect((await route(b, secretKey, { destination: '+33810123456' })).body).toEqual({
        status: 403,
        error: 'destination +33810123456 is a shared-cost number, not allowed for this client',
      });
      expect((await route(b, secretKey, { destination: '+447700900123' })).status).toBe(200);
      await metricReaches(a, 'dispatch_route_refusals_total{reason="number-type"}', before + 2);
      expect((await change(clientId, { allowPremiumNumbers: true })).status).toBe(200);
      expect((await route(b, secretKey, { destination: '+19005551234' })).status).toBe(200);
      expect((await route(b, secretKey, { destination: '+33810123456' })).status).toBe(200);
    });

    it('should check allowed destinations, then the number type, then the range', async () => {
      const { secretKey, clientId, smsConfigId } = await newClient('block', { allowedDestinations: ['44'] });
      expect((await route(b, secretKey, { destination: '+19005551234' })).body.error).toBe(
        'destination +19005551234 is not allowed for this client',
      );
      expect((await change(clientId, { allowedDestinations: ['1'] })).status).toBe(200);
      await report(a, smsConfigId, '+19005551234', { sent: 21 });
      expect((await route(b, secretKey, { destination: '+19005551234' })).body.error).toBe(
        'destination +19005551234 is a premium-rate number, not allowed for this client',
      );
      expect((await change(clientId, { allowPremiumNumbers: true })).status).toBe(200);
      expect((await route(b, secretKey, { destination: '+19005551234' })).body.error).toBe(
        'destination +19005551234 is in range +1900555xxxx, blocked for suspected SMS pumping',
      );
    });
  });

  describe('storage', () => {
    it('should keep no pumping counts for a client in off, and suspect nothing', async () => {
      const { clientId, smsConfigId } = await newClient('off');
      await report(a, smsConfigId, NUMBER, { sent: 1000, codesSent: 1000 });
      expect(await suspicionsOf(clientId)).toEqual([]);
      expect(await rowCount('pumping_count', clientId)).toBe(0);
      expect(await rowCount('pumping_baseline', clientId)).toBe(0);
    });

    it('should keep one row per range and minute, and delete every row with its client', async () => {
      const { clientId, smsConfigId } = await newClient();
      await report(a, smsConfigId, NUMBER, { sent: 10, codesSent: 5, verified: 1 });
      await report(b, smsConfigId, SAME_RANGE, { sent: 11, codesSent: 5, verified: 1 });
      now = T0 + 60_000;
      await report(a, smsConfigId, NUMBER, { sent: 1 });
      const rows = await a.dataSource.query(
        'SELECT destination_range AS `range`, minute, sent, codes_sent AS codes, verified FROM pumping_count WHERE client_id = ? ORDER BY minute',
        [clientId],
      );
      const minute = Math.floor(T0 / 60_000);
      expect(rows.map((row: Record<string, unknown>) => Object.values(row).map(String))).toEqual([
        [RANGE, String(minute), '21', '10', '2'],
        [RANGE, String(minute + 1), '1', '0', '0'],
      ]);
      expect(await rowCount('pumping_range', clientId)).toBe(1);
      expect(await rowCount('pumping_baseline', clientId)).toBe(1);
      expect((await a.send('DELETE', `/api/v1/clients/${clientId}`, { headers: ADMIN })).status).toBe(200);
      for (const table of ['pumping_count', 'pumping_baseline', 'pumping_range']) expect(await rowCount(table, clientId)).toBe(0);
    });
  });
});
