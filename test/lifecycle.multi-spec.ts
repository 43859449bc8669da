import { ClientCache } from '../src/client-cache/client-cache';
import { ServiceProcess, emptyMysqlDatabase, sleep } from './helpers/service-process';
import { TcpRelay } from './helpers/tcp-relay';
import { ADMIN_API_KEY, AMQP_URL, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

/**
 * Every change of the lifecycle reaches every instance within 1 s, though both cache the answers and who owns each key:
 * instance A in this process, instance B a child process (`node dist/main.js`), one MySQL database, the broker behind
 * a relay the test can cut (as in cache-invalidation.multi-spec.ts).
 */
const WITHIN_MS = 1000;
const ADMIN = { 'x-api-key': ADMIN_API_KEY };

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** ms from now until `status()` answers `expected`; fails the test past three times the limit. */
async function msUntil(status: () => Promise<number>, expected: number): Promise<number> {
  const start = Date.now();
  while ((await status()) !== expected) {
    if (Date.now() - start > 3 * WITHIN_MS) throw new Error(`still not ${expected} after ${Date.now() - start} ms`);
    await sleep(10);
  }
  return Date.now() - start;
}

describe('lifecycle changes across instances', () => {
  let relay: TcpRelay;
  let a: TestApp;
  let cacheA: ClientCache;
  let b: ServiceProcess;

  const getClientThroughA = async (secretKey: string) => (await a.post('/api/client/get/secretKey', { headers: { secretKey } })).status;
  const getClientThroughB = async (secretKey: string) => (await b.post('/api/client/get/secretKey', { headers: { secretKey } })).status;
  const listThroughB = async (secretKey: string) =>
    (await b.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).status;
  const brokerSeenByB = async () => (await b.request('GET', '/health', { timeoutMs: 1000 }).catch(() => undefined))?.body?.results?.broker;

  /** A client known to both instances (its answer and its owner cached in each), with one configuration. */
  async function clientCachedEverywhere(): Promise<{ secretKey: string; clientId: number }> {
    const appName = `multi-${Math.random().toString(36).slice(2)}`;
    const secretKey = await a.addClient({ appName });
    expect((await a.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      expect(await getClientThroughA(secretKey)).toBe(200);
      expect(await getClientThroughB(secretKey)).toBe(200);
      expect(await listThroughB(secretKey)).toBe(200);
    }
    const clientId = (await a.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    return { secretKey, clientId };
  }

  beforeAll(async () => {
    relay = await TcpRelay.start(new URL(AMQP_URL).hostname, Number(new URL(AMQP_URL).port || 5672));
    const env = { DATABASE_URL: await emptyMysqlDatabase('lifecycle_multi'), AMQP_URL: relay.rewrite(AMQP_URL) };
    a = await startTestApp(env);
    cacheA = a.app.get(ClientCache);
    b = await ServiceProcess.start(env);
    await waitFor('instance A to subscribe', () => cacheA.isLive);
    await waitFor('instance B to reach the broker', async () => (await brokerSeenByB()) === 'up');
    // B subscribes right after it connects: wait until a change made through A reaches it.
    const probe = await clientCachedEverywhere();
    await a.send('PATCH', `/api/v1/clients/${probe.clientId}`, { headers: ADMIN, body: { isActive: false } });
    await waitFor('B to hear invalidations', async () => (await getClientThroughB(probe.secretKey)) === 403);
  }, 90_000);

  afterAll(async () => {
    await b?.stop();
    await a?.close();
    await relay?.close();
  });

  it('should refuse a client disabled through A on B within 1 s (403 on get-client and the SMS routes), and serve it again once enabled', async () => {
    const { secretKey, clientId } = await clientCachedEverywhere();
    expect((await a.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: false } })).status).toBe(200);
    expect(await msUntil(() => getClientThroughB(secretKey), 403)).toBeLessThan(WITHIN_MS);
    expect(await listThroughB(secretKey)).toBe(403);
    expect((await a.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: true } })).status).toBe(200);
    expect(await msUntil(() => getClientThroughB(secretKey), 200)).toBeLessThan(WITHIN_MS);
  });

  it('should make the keys of a client deleted through B unknown in A within 1 s', async () => {
    const { secretKey, clientId } = await clientCachedEverywhere();
    expect((await b.request('DELETE', `/api/v1/clients/${clientId}`, { headers: ADMIN })).status).toBe(200);
    expect(await msUntil(() => getClientThroughA(secretKey), 404)).toBeLessThan(WITHIN_MS);
    expect((await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).status).toBe(401);
  });

  it('should make a key revoked through A (rotation with graceSeconds 0) unknown on B within 1 s, and its new key work there', async () => {
    const { secretKey } = await clientCachedEverywhere();
    const rotated = await a.post('/api/v1/client/secret-key/rotate', { headers: { secretKey }, body: { graceSeconds: 0 } });
    expect(rotated.status).toBe(200);
    expect(await msUntil(() => getClientThroughB(secretKey), 404)).toBeLessThan(WITHIN_MS);
    expect(await listThroughB(secretKey)).toBe(401);
    expect(await getClientThroughB(rotated.body.results.secretKey)).toBe(200);
  });

  it('should end a grace period on B at previousKeyExpiresAt (within 1 s), though B cached the previous key', async () => {
    const { secretKey } = await clientCachedEverywhere();
    const rotated = await a.post('/api/v1/client/secret-key/rotate', { headers: { secretKey }, body: { graceSeconds: 2 } });
    expect(await getClientThroughB(secretKey)).toBe(200);
    expect(await getClientThroughB(secretKey)).toBe(200);
    await sleep(Date.parse(rotated.body.results.previousKeyExpiresAt) - Date.now());
    expect(await msUntil(() => getClientThroughB(secretKey), 404)).toBeLessThan(WITHIN_MS);
  });

  it('should show a configuration changed or deleted through B in A within 1 s, under the previous key too', async () => {
    const { secretKey } = await clientCachedEverywhere();
    const newKey = (await a.post('/api/v1/client/secret-key/rotate', { headers: { secretKey } })).body.results.secretKey as string;
    const providerOf = async (key: string) =>
      (await a.post('/api/client/get/secretKey', { headers: { secretKey: key } })).body.results.smsConfig?.[0]?.providerName ?? null;
    for (const key of [secretKey, newKey]) expect(await providerOf(key)).toBe('twilio');
    const [config] = (await b.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: newKey } })).body.results;
    expect(
      (
        await b.request('PATCH', `/api/v1/sms-configs/${config.smsConfigId}`, {
          headers: { secretKey: newKey },
          body: { providerName: 'vonage' },
        })
      ).status,
    ).toBe(200);
    const start = Date.now();
    await msUntil(async () => ((await providerOf(secretKey)) === 'vonage' && (await providerOf(newKey)) === 'vonage' ? 1 : 0), 1);
    expect(Date.now() - start).toBeLessThan(WITHIN_MS);
    expect((await b.request('DELETE', `/api/v1/sms-configs/${config.smsConfigId}`, { headers: { secretKey } })).status).toBe(200);
    const deletedAt = Date.now();
    await msUntil(async () => ((await providerOf(secretKey)) === null && (await providerOf(newKey)) === null ? 1 : 0), 1);
    expect(Date.now() - deletedAt).toBeLessThan(WITHIN_MS);
  });

  it('should run a request sent to both instances at once with one Idempotency-Key only once, and replay it on either', async () => {
    const body = { appName: `idempotent-${Date.now()}`, appUrl: 'https://idempotent.example.com', isHost: false };
    const headers = { ...ADMIN, 'idempotency-key': `both-instances-${Date.now()}` };
    const answers = await Promise.all([
      a.post('/api/client/add', { headers, body }),
      b.post('/api/client/add', { headers, body }),
      a.post('/api/client/add', { headers, body }),
      b.post('/api/client/add', { headers, body }),
    ]);
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    const created = (await a.get(`/api/v1/clients?appName=${body.appName}`, ADMIN)).body.results.items;
    expect(created).toHaveLength(1);
    const replayA = await a.post('/api/client/add', { headers, body });
    const replayB = await b.post('/api/client/add', { headers, body });
    expect(replayB.raw).toBe(replayA.raw);
    expect(replayB.headers.get('idempotent-replayed')).toBe('true');
    for (const answer of answers.filter((each) => each.status === 200)) expect(answer.raw).toBe(replayA.raw);
  });

  describe('with the broker down', () => {
    beforeAll(async () => {
      await relay.cut();
      await waitFor('instance A to notice the broker is gone', () => !cacheA.isLive);
      await waitFor('instance B to notice the broker is gone', async () => (await brokerSeenByB()) === 'down');
    });
    afterAll(async () => relay.restore());

    it('should still refuse a client disabled through B in A within 1 s, on get-client and on the SMS routes', async () => {
      const { secretKey, clientId } = await clientCachedEverywhere();
      expect((await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).status).toBe(200);
      expect((await b.request('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: false } })).status).toBe(200);
      const start = Date.now();
      await msUntil(async () => (await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).status, 403);
      await msUntil(() => getClientThroughA(secretKey), 403);
      expect(Date.now() - start).toBeLessThan(WITHIN_MS);
    });
  });
});
