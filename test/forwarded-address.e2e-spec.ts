import { KeyUsageFlusher } from '../src/key-usage/key-usage-flusher';
import CLIENT from './fixtures/client.json';
import { ADMIN_API_KEY, TestApp, startTestApp } from './helpers/test-app';

/** The load balancers in front: requests reach the service from 127.0.0.1 (inject's peer), through 192.0.2.10 at times. */
const PROXIES = '127.0.0.1, 192.0.2.10';
const BLOCKED = { status: 429, error: 'Too many refused credentials from this address, retry later' };

describe('The address counted behind TRUST_PROXY=<list>', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: PROXIES });
  });
  afterAll(() => t.close());

  /** An add client through the balancer, which appends the address it saw to what the caller sent. */
  const addClient = (key: string, forwardedFor: string) =>
    t.post('/api/client/add', { headers: { 'x-api-key': key, 'x-forwarded-for': forwardedFor }, body: CLIENT });

  it('should count a forger as the balancer saw it: 101 wrong keys under a forged 10.20.30.40 block the sender, not 10.20.30.40', async () => {
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 101; attempt++) {
      statuses.push((await addClient(`guess-${attempt}`, '10.20.30.40, 203.0.113.7')).status);
    }
    expect(statuses.slice(0, 100)).toEqual(Array.from({ length: 100 }, () => 401));
    expect(statuses[100]).toBe(429);
    expect((await addClient(ADMIN_API_KEY, '10.20.30.40, 203.0.113.7')).body).toEqual(BLOCKED);

    // The real 10.20.30.40, through the balancer: its wrong key is a 401, its right key answers.
    expect((await addClient('guess-real', '10.20.30.40')).body).toEqual({ status: 401, error: 'x-api-key is not valid' });
    expect((await addClient(ADMIN_API_KEY, '10.20.30.40')).status).toBe(200);
  });

  it('should count rotating forged addresses against their sender', async () => {
    for (let attempt = 1; attempt <= 100; attempt++) {
      expect((await addClient(`guess-${attempt}`, `198.51.100.${attempt}, 203.0.113.8`)).status).toBe(401);
    }
    expect((await addClient('guess-101', '198.51.100.101, 203.0.113.8')).body).toEqual(BLOCKED);
    expect((await addClient(ADMIN_API_KEY, '198.51.100.1')).status).toBe(200);
  });

  it('should skip every listed proxy from the right, and count the first address that is not one', async () => {
    for (let attempt = 1; attempt <= 100; attempt++) {
      expect((await addClient(`guess-${attempt}`, `10.9.9.${attempt}, 203.0.113.9, 192.0.2.10`)).status).toBe(401);
    }
    expect((await addClient('guess-101', '10.9.9.101, 203.0.113.9, 192.0.2.10')).body).toEqual(BLOCKED);
    expect((await addClient(ADMIN_API_KEY, '203.0.113.9, 192.0.2.10')).body).toEqual(BLOCKED);
    expect((await addClient(ADMIN_API_KEY, '203.0.113.9')).body).toEqual(BLOCKED);
    // A peer that is not a listed proxy is counted itself, whatever it forwards.
    const direct = await t.post('/api/client/add', {
      headers: { 'x-api-key': ADMIN_API_KEY, 'x-forwarded-for': '203.0.113.9' },
      body: CLIENT,
      remoteAddress: '198.51.100.200',
    });
    expect(direct.status).toBe(200);
  });
});

/**
 * A balancer that appends the address it saw with its port (`203.0.113.7:51234`, `[2001:db8::1]:443`): the caller is the
 * address, whatever port each connection came from, for the limits, the audit and key usage alike.
 */
describe.each([
  ['RATE_LIMIT_PER_IP', { RATE_LIMIT_PER_IP: '3' }],
  ['RATE_LIMIT_FAILED_AUTH_PER_IP', { RATE_LIMIT_FAILED_AUTH_PER_IP: '3' }],
])('An address a proxy wrote with its port, behind TRUST_PROXY=<list> (%s=3)', (_limit, limits) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: PROXIES, KEY_USAGE_FLUSH_MS: '600000', ...limits });
  });
  afterAll(() => t.close());

  const addClient = (key: string, forwardedFor: string, appName = `port-${Math.random().toString(36).slice(2)}`) =>
    t.post('/api/client/add', { headers: { 'x-api-key': key, 'x-forwarded-for': forwardedFor }, body: { ...CLIENT, appName } });
  const getClient = (secretKey: string, forwardedFor: string) =>
    t.post('/api/client/get/secretKey', { headers: { secretKey, 'x-forwarded-for': forwardedFor } });

  it('should count one address over the ports of its connections, and block it on get-client too', async () => {
    const secretKey = (await addClient(ADMIN_API_KEY, '198.51.100.70')).body.results.secretKey as string;
    for (const port of [1, 2, 3]) expect((await addClient(`guess-${port}`, `203.0.113.7:${port}`)).status).toBe(401);
    expect((await addClient('guess-4', '203.0.113.7:4')).body).toEqual(BLOCKED);
    expect((await addClient(ADMIN_API_KEY, '203.0.113.7:5')).body).toEqual(BLOCKED);
    expect((await addClient(ADMIN_API_KEY, '203.0.113.7')).body).toEqual(BLOCKED);
    expect((await getClient(secretKey, '203.0.113.7:6')).body).toEqual(BLOCKED);
    expect((await getClient(secretKey, '203.0.113.8:6')).status).toBe(200);

    // IPv6 in brackets: its /64, whatever the port.
    for (const port of [443, 444, 445]) expect((await addClient(`guess-${port}`, `[2001:db8:7:7::1]:${port}`)).status).toBe(401);
    expect((await addClient('guess-446', '[2001:db8:7:7::1]:446')).body).toEqual(BLOCKED);
    expect((await addClient(ADMIN_API_KEY, '[2001:db8:7:7::2]:8443')).body).toEqual(BLOCKED);
    expect((await getClient(secretKey, '2001:db8:7:7::3')).body).toEqual(BLOCKED);
  });

  it('should audit the address without its port', async () => {
    const fromIpv4 = `port-v4-${Math.random().toString(36).slice(2)}`;
    const fromIpv6 = `port-v6-${Math.random().toString(36).slice(2)}`;
    expect((await addClient(ADMIN_API_KEY, '203.0.113.17:51234', fromIpv4)).status).toBe(200);
    expect((await addClient(ADMIN_API_KEY, '[2001:db8::1]:443', fromIpv6)).status).toBe(200);
    const created = (await t.get('/api/v1/audit-events?action=client.created', { 'x-api-key': ADMIN_API_KEY })).body.results
      .items as Array<{
      clientId: number;
      sourceAddress: string | null;
    }>;
    const addressOf = async (appName: string) => {
      const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, { 'x-api-key': ADMIN_API_KEY })).body.results.items[0].clientId;
      return created.find((entry) => entry.clientId === clientId)?.sourceAddress;
    };
    expect(await addressOf(fromIpv4)).toBe('203.0.113.17');
    expect(await addressOf(fromIpv6)).toBe('2001:db8::1');
  });

  it("should note the address without its port as the key's last address", async () => {
    const appName = `port-usage-${Math.random().toString(36).slice(2)}`;
    const secretKey = (await addClient(ADMIN_API_KEY, '198.51.100.71', appName)).body.results.secretKey as string;
    const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, { 'x-api-key': ADMIN_API_KEY })).body.results.items[0].clientId;
    const lastUsedFrom = async () => {
      await t.app.get(KeyUsageFlusher).flush();
      return (await t.get(`/api/v1/clients/${clientId}`, { 'x-api-key': ADMIN_API_KEY })).body.results.secretKeyLastUsedFrom;
    };
    expect((await getClient(secretKey, '203.0.113.27:51234')).status).toBe(200);
    expect(await lastUsedFrom()).toBe('203.0.113.27');
    expect((await getClient(secretKey, '[2001:db8::1]:443')).status).toBe(200);
    expect(await lastUsedFrom()).toBe('2001:db8::1');
  });

  it('should know a listed proxy written with its port, and count the address before it', async () => {
    const appName = `port-chain-${Math.random().toString(36).slice(2)}`;
    expect((await addClient(ADMIN_API_KEY, '203.0.113.37:1000, 192.0.2.10:443', appName)).status).toBe(200);
    const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, { 'x-api-key': ADMIN_API_KEY })).body.results.items[0].clientId;
    const [entry] = (await t.get(`/api/v1/audit-events?clientId=${clientId}&action=client.created`, { 'x-api-key': ADMIN_API_KEY })).body
      .results.items;
    expect(entry.sourceAddress).toBe('203.0.113.37');
  });
});
