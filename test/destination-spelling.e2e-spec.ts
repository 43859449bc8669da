import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';
import { metricOf, metricReaches } from './helpers/metrics';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const IMPOSSIBLE = { status: 400, error: 'destination must be a possible E.164 number (+<calling code><number>)' };
// A UK mobile, and the same number with the trunk 0 a national dialler writes after +44.
const NUMBER = '+447400123456';
const WITH_TRUNK_ZERO = '+4407400123456';
const RANGE = '+44740012xxxx';

/** §26: one spelling per number. Route refuses any spelling but the E.164 form; outcomes count a spelling as its E.164 form. */
describe('One spelling per number: route and outcomes read a destination once, in its E.164 form', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await approveProviderHosts(t);
  });
  afterAll(() => t.close());

  async function newClient(settings: Record<string, unknown> = {}, config: Record<string, unknown> = {}) {
    const appName = `spelling-${Math.random().toString(36).slice(2)}`;
    const secretKey = await t.addClient({ appName });
    const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    if (Object.keys(settings).length > 0) {
      expect((await t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: settings })).status).toBe(200);
    }
    const added = await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig({ balance: 100, ...config }) });
    expect(added.status).toBe(200);
    const smsConfigId = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results[0]
      .smsConfigId as number;
    return { secretKey, clientId, smsConfigId };
  }

  const route = (secretKey: string, destination: string) =>
    t.post('/api/v1/dispatch/route', { headers: { ...DISPATCHER, secretKey }, body: { destination } });
  async function report(body: Record<string, unknown>): Promise<{ balance: number }> {
    const answer = await t.post('/api/v1/dispatch/outcomes', { headers: DISPATCHER, body: { failed: 0, ...body } });
    expect(answer.status).toBe(200);
    return answer.body.results;
  }
  const rowsOf = (sql: string, id: number) => t.dataSource.query(sql, [id]);

  describe('on route', () => {
    it.each([
      [WITH_TRUNK_ZERO, 'a trunk 0 after the calling code'],
      ['+330612345678', 'a trunk 0 after +33'],
      ['+610412345678', 'a trunk 0 after +61'],
      ['+112025550123', 'a 1 doubled in the North American plan'],
      ['+999123456789', 'an unknown calling code'],
      ['+0123456789', 'calling code 0'],
      ['+4474001', 'too short for its country'],
      ['+447400123456789', 'too long for its country'],
    ])('should refuse %s (%s) with 400', async (destination) => {
      const { secretKey } = await newClient();
      const before = await metricOf(t, 'dispatch_route_refusals_total{reason="impossible-number"}');
      const answer = await route(secretKey, destination);
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: IMPOSSIBLE });
      await metricReaches(t, 'dispatch_route_refusals_total{reason="impossible-number"}', before + 1);
    });

    it('should refuse another spelling before allowed destinations and the number type would (403)', async () => {
      const outside = await newClient({ allowedDestinations: ['33'] });
      expect((await route(outside.secretKey, NUMBER)).status).toBe(403);
      expect((await route(outside.secretKey, WITH_TRUNK_ZERO)).body).toEqual(IMPOSSIBLE);
      // +1 900 is premium-rate: refused as a number type in its E.164 form, as a spelling otherwise.
      const premium = await newClient();
      expect((await route(premium.secretKey, '+19005551234')).status).toBe(403);
      expect((await route(premium.secretKey, '+119005551234')).body).toEqual(IMPOSSIBLE);
    });

    it('should refuse the blocked range written with a trunk 0, where it offered candidates before', async () => {
      const { secretKey, smsConfigId } = await newClient({ pumpingGuard: 'block' });
      // A new client (baseline 0) past PUMPING_MIN_SENT: its range is suspected, and blocked.
      await report({ smsConfigId, sent: 21, destination: NUMBER });
      expect((await route(secretKey, NUMBER)).body).toEqual({
        status: 403,
        error: `destination ${NUMBER} is in range ${RANGE}, blocked for suspected SMS pumping`,
      });
      expect((await route(secretKey, WITH_TRUNK_ZERO)).body).toEqual(IMPOSSIBLE);
    });
  });

  describe('on outcomes', () => {
    it("should count another spelling as its E.164 form: its price, its calling code's receipts, its range's pumping counts", async () => {
      const before = await metricOf(t, 'dispatch_report_destinations_total{reading="respelled"}');
      const { clientId, smsConfigId } = await newClient({}, { perSmsCost: 0.01, destinationPrices: [{ prefix: '4474', perSmsCost: 0.5 }] });
      expect(await report({ smsConfigId, sent: 2, delivered: 1, destination: WITH_TRUNK_ZERO })).toMatchObject({ balance: 99 });
      expect(await rowsOf('SELECT calling_code AS code, delivered FROM delivery_count WHERE sms_config_id = ?', smsConfigId)).toEqual([
        { code: '44', delivered: expect.anything() },
      ]);
      const ranges = await rowsOf('SELECT destination_range AS destinationRange, sent FROM pumping_count WHERE client_id = ?', clientId);
      expect(
        ranges.map(({ destinationRange, sent }: { destinationRange: string; sent: string | number }) => [destinationRange, Number(sent)]),
      ).toEqual([[RANGE, 2]]);
      await metricReaches(t, 'dispatch_report_destinations_total{reading="respelled"}', before + 1);
    });

    it('should count a report to an unknown code or an impossible number as one without destination: flat price, no rate, no pumping count', async () => {
      const before = await metricOf(t, 'dispatch_report_destinations_total{reading="unreadable"}');
      const { clientId, smsConfigId } = await newClient({}, { perSmsCost: 0.01, destinationPrices: [{ prefix: '999', perSmsCost: 0.5 }] });
      expect(await report({ smsConfigId, sent: 2, delivered: 2, destination: '+999123456789' })).toMatchObject({ balance: 99.98 });
      expect(await report({ smsConfigId, sent: 2, delivered: 2, destination: '+4474001' })).toMatchObject({ balance: 99.96 });
      expect(await rowsOf('SELECT * FROM delivery_count WHERE sms_config_id = ?', smsConfigId)).toEqual([]);
      expect(await rowsOf('SELECT * FROM pumping_count WHERE client_id = ?', clientId)).toEqual([]);
      // Counted all the same: the sent messages are in the client's day.
      const viewed = (await t.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results;
      expect({ sentToday: viewed.sentToday, spentToday: viewed.spentToday }).toEqual({ sentToday: 4, spentToday: 0.04 });
      await metricReaches(t, 'dispatch_report_destinations_total{reading="unreadable"}', before + 2);
    });
  });
});
