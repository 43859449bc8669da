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
