import { METRICS_CACHE_MS } from '../src/metrics/metrics-renderer';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const PREFIX_RULE = 'must be a string of 1 to 7 digits (an E.164 prefix without +)';

describe('Allowed destinations', () => {
  let t: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    const url = await testDatabaseUrl();
    t = await startTestApp({ DATABASE_URL: url });
    second = await startTestApp({ DATABASE_URL: url }, { keepData: true });
    await approveProviderHosts(t);
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  async function newClient() {
    const appName = `allowed-${Math.random().toString(36).slice(2)}`;
    const secretKey = await t.addClient({ appName });
    const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    return { secretKey, clientId };
  }

  const allow = (app: TestApp, clientId: number, allowedDestinations: unknown) =>
    app.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { allowedDestinations } });
  const route = (app: TestApp, secretKey: string, body?: unknown) =>
    app.post('/api/v1/dispatch/route', { headers: { ...DISPATCHER, secretKey }, body });
  const refusals = async (reason: string): Promise<number> => {
    const metrics = (await t.get('/metrics', ADMIN)).raw;
    const line = metrics.split('\n').find((each) => each.startsWith(`dispatch_route_refusals_total{reason="${reason}"}`));
    return line === undefined ? 0 : Number(line.split(' ').at(-1));
  };

  it('should keep the prefixes an admin sets, in their order, in the admin view, and clear them with null', async () => {
    const { clientId } = await newClient();
    const set = await allow(t, clientId, ['447', '33', '1']);
    expect(set.status).toBe(200);
    expect(set.body.results.allowedDestinations).toEqual(['447', '33', '1']);
    expect((await t.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results.allowedDestinations).toEqual(['447', '33', '1']);
    const audit = await t.get(`/api/v1/audit-events?clientId=${clientId}&action=client.updated`, ADMIN);
    expect(audit.body.results.items.map((entry: { changed: string[] }) => entry.changed)).toEqual([['allowedDestinations']]);

    const cleared = await allow(t, clientId, null);
    expect(cleared.status).toBe(200);
    expect(cleared.body.results.allowedDestinations).toBeNull();
  });

  it('should record no change when the same prefixes are sent again', async () => {
    const { clientId } = await newClient();
    await allow(t, clientId, ['44']);
    expect((await allow(t, clientId, ['44'])).status).toBe(200);
    const audit = await t.get(`/api/v1/audit-events?clientId=${clientId}&action=client.updated`, ADMIN);
    expect(audit.body.results.items).toHaveLength(1);
  });

  it.each([
    ['a string', '44', 'allowedDestinations must be an array of E.164 prefixes, or null'],
    ['a number', [44], `allowedDestinations[0] ${PREFIX_RULE}`],
    ['a +', ['44', '+33'], `allowedDestinations[1] ${PREFIX_RULE}`],
    ['8 digits', ['12345678'], `allowedDestinations[0] ${PREFIX_RULE}`],
    ['an empty prefix', [''], `allowedDestinations[0] ${PREFIX_RULE}`],
    ['a prefix twice', ['44', '33', '44'], 'allowedDestinations has prefix 44 more than once'],
    ['301 prefixes', Array.from({ length: 301 }, (_, index) => String(1000 + index)), 'allowedDestinations must have at most 300 entries'],
  ])('should refuse allowedDestinations with %s with 400 naming the problem', async (_case, allowedDestinations, error) => {
    const { clientId } = await newClient();
    const answer = await allow(t, clientId, allowedDestinations);
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { status: 400, error } });
    expect((await t.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results.allowedDestinations).toBeNull();
  });

  it('should accept 300 prefixes', async () => {
    const { clientId } = await newClient();
    const prefixes = Array.from({ length: 300 }, (_, index) => String(1000 + index));
    expect((await allow(t, clientId, prefixes)).body.results.allowedDestinations).toEqual(prefixes);
  });

  it('should route without a destination any client that has no allowed destinations', async () => {
    const { secretKey } = await newClient();
    expect((await route(t, secretKey)).status).toBe(200);
    expect((await route(t, secretKey, { destination: '+12025550123' })).status).toBe(200);
  });

  it('should refuse route without a destination (400) and outside the prefixes (403), and route inside them', async () => {
    const { secretKey, clientId } = await newClient();
    await allow(t, clientId, ['447', '33']);
    const [required, notAllowed] = [await refusals('destination-required'), await refusals('destination-not-allowed')];

    const missing = await route(t, secretKey);
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 400,
      body: { status: 400, error: 'destination is required for this client' },
    });
    // 44 is not 447; 1 and 34 are no prefix of theirs.
    for (const destination of ['+442079460000', '+12025550123', '+34123456789']) {
      expect((await route(t, secretKey, { destination })).status).toBe(403);
    }
    const outside = await route(t, secretKey, { destination: '+12025550123' });
    expect(outside.body).toEqual({ status: 403, error: 'destination +12025550123 is not allowed for this client' });

    for (const destination of ['+447700900123', '+33612345678']) {
      const inside = await route(t, secretKey, { destination });
      expect(inside.status).toBe(200);
      expect(inside.body.results.candidates).toHaveLength(1);
    }
    // A scrape is rendered at most once a second.
    await new Promise((resolve) => setTimeout(resolve, METRICS_CACHE_MS + 50));
    expect(await refusals('destination-required')).toBe(required + 1);
    expect(await refusals('destination-not-allowed')).toBe(notAllowed + 4);
  });

  it('should apply a change made on one instance to route on another at once', async () => {
    const { secretKey, clientId } = await newClient();
    expect((await route(second, secretKey, { destination: '+12025550123' })).status).toBe(200);
    await allow(t, clientId, ['44']);
    const changedAt = Date.now();
    expect((await route(second, secretKey, { destination: '+12025550123' })).status).toBe(403);
    expect(Date.now() - changedAt).toBeLessThan(1000);
    await allow(second, clientId, null);
    expect((await route(t, secretKey, { destination: '+12025550123' })).status).toBe(200);
  });

  it("should leave the seed's get-client answer as it was", async () => {
    const { secretKey, clientId } = await newClient();
    const before = await t.post('/api/client/get/secretKey', { headers: { secretKey } });
    await allow(t, clientId, ['44']);
    const after = await t.post('/api/client/get/secretKey', { headers: { secretKey } });
    expect(after.status).toBe(200);
    expect(after.raw).toBe(before.raw);
    expect(after.raw).not.toContain('allowedDestinations');
  });
});
