import { ClientCache } from '../src/client-cache/client-cache';
import { ServiceProcess, emptyMysqlDatabase, sleep } from './helpers/service-process';
import { TcpRelay } from './helpers/tcp-relay';
import { ADMIN_API_KEY, AMQP_URL, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

/**
 * Two instances on one MySQL database, both reaching RabbitMQ through a relay the test can cut. Instance A runs in
 * this process (its cache can be inspected); instance B is `node dist/main.js` in a child process, because
 * golevelup's connection manager is static and two apps in one process would share (and close) one connection.
 */
const VISIBLE_WITHIN_MS = 1000;

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('cache invalidation across instances', () => {
  let relay: TcpRelay;
  let a: TestApp;
  let cacheA: ClientCache;
  let b: ServiceProcess;

  const smsConfigCountThroughA = async (secretKey: string) =>
    ((await a.post('/api/client/get/secretKey', { headers: { secretKey } })).body.results.smsConfig ?? []).length as number;
  const smsConfigCountThroughB = async (secretKey: string) =>
    ((await b.post('/api/client/get/secretKey', { headers: { secretKey } })).body.results.smsConfig ?? []).length as number;

  /** The candidates route offers through an instance for the key. */
  const candidatesThrough = async (instance: TestApp | ServiceProcess, secretKey: string) =>
    (await instance.post('/api/v1/dispatch/route', { headers: { 'x-api-key': DISPATCHER_API_KEY, secretKey } })).body.results
      .candidates as unknown[];

  /** A client whose one configuration sends to `host` only, not approved yet. */
  async function clientSendingTo(host: string): Promise<string> {
    const key = await a.addClient();
    const body = validSmsConfig({ smsApi: `https://${host}/send`, providerUrl: null, balanceUrl: null });
    expect((await a.post('/api/sms-config/add', { headers: { secretKey: key }, body })).status).toBe(200);
    return key;
  }

  /** ms from an approval on `from` until route on `to` offers the configuration; fails past the limit. */
  async function msUntilRouted(from: TestApp | ServiceProcess, to: TestApp | ServiceProcess, host: string): Promise<number> {
    const key = await clientSendingTo(host);
    expect(await candidatesThrough(to, key)).toEqual([]);
    const approved = await from.post('/api/v1/provider-hosts', { headers: { 'x-api-key': ADMIN_API_KEY }, body: { host } });
    expect(approved.status).toBe(200);
    const start = Date.now();
    while ((await candidatesThrough(to, key)).length === 0) {
      if (Date.now() - start > 3 * VISIBLE_WITHIN_MS) break;
      await sleep(10);
    }
    return Date.now() - start;
  }

  const brokerSeenByB = async () => (await b.request('GET', '/health', { timeoutMs: 1000 }).catch(() => undefined))?.body?.results?.broker;

  /** ms from the moment the add was answered until `count()` sees it; fails past the limit. */
  async function msUntilVisible(count: () => Promise<number>, expected: number): Promise<number> {
    const start = Date.now();
    while ((await count()) !== expected) {
      if (Date.now() - start > 3 * VISIBLE_WITHIN_MS) break;
      await sleep(10);
    }
    return Date.now() - start;
  }

  beforeAll(async () => {
    relay = await TcpRelay.start(new URL(AMQP_URL).hostname, Number(new URL(AMQP_URL).port || 5672));
    const env = {
      DATABASE_URL: await emptyMysqlDatabase('multi_instance'),
      AMQP_URL: relay.rewrite(AMQP_URL),
      DISPATCHER_API_KEYS: DISPATCHER_API_KEY,
    };
    a = await startTestApp(env);
    cacheA = a.app.get(ClientCache);
    b = await ServiceProcess.start(env);
    await waitFor('instance A to subscribe', () => cacheA.isLive);
    await waitFor('instance B to reach the broker', async () => (await brokerSeenByB()) === 'up');
  }, 90_000);

  afterAll(async () => {
    await b?.stop();
    await a?.close();
    await relay?.close();
  });

  it('should show a configuration added through B in A within 1 s while the broker is up', async () => {
    const key = await a.addClient();
    expect(await smsConfigCountThroughA(key)).toBe(0);
    expect(await smsConfigCountThroughA(key)).toBe(0); // now cached in A, for up to a minute while live
    expect(cacheA.isLive).toBe(true);

    expect((await b.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })).status).toBe(200);
    expect(await msUntilVisible(() => smsConfigCountThroughA(key), 1)).toBeLessThan(VISIBLE_WITHIN_MS);
  });

  it('should show a configuration added through A in B within 1 s while the broker is up', async () => {
    const key = await a.addClient();
    // B may still be subscribing: wait until A's invalidations reach it, then measure on a fresh change.
    await waitFor('B to hear invalidations', async () => {
      await smsConfigCountThroughB(key);
      const before = await smsConfigCountThroughB(key);
      await a.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() });
      return (await msUntilVisible(() => smsConfigCountThroughB(key), before + 1)) < 200;
    });
    const before = await smsConfigCountThroughB(key);
    expect(await smsConfigCountThroughB(key)).toBe(before);

    expect((await a.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })).status).toBe(200);
    expect(await msUntilVisible(() => smsConfigCountThroughB(key), before + 1)).toBeLessThan(VISIBLE_WITHIN_MS);
  });

  it('should show many configurations added through B at once in A within 1 s (invalidations travel in batches)', async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, () => a.addClient()));
    for (const key of keys) expect(await smsConfigCountThroughA(key)).toBe(0);
    expect(cacheA.size).toBeGreaterThanOrEqual(keys.length);

    const added = await Promise.all(
      keys.map((key) => b.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })),
    );
    expect(added.map((answer) => answer.status)).toEqual(keys.map(() => 200));
    const start = Date.now();
    for (const key of keys) {
      await msUntilVisible(() => smsConfigCountThroughA(key), 1);
      expect(await smsConfigCountThroughA(key)).toBe(1);
    }
    expect(Date.now() - start).toBeLessThan(VISIBLE_WITHIN_MS);
  });

  it('should apply a provider host approved through A to route on B within 1 s while the broker is up', async () => {
    expect(await msUntilRouted(a, b, `up-${Date.now()}.example.com`)).toBeLessThan(VISIBLE_WITHIN_MS);
  });

  describe('with the broker down', () => {
    beforeAll(async () => {
      await relay.cut();
      await waitFor('instance A to notice the broker is gone', () => !cacheA.isLive);
      await waitFor('instance B to notice the broker is gone', async () => (await brokerSeenByB()) === 'down');
    });

    it('should apply a provider host approved through B to route on A within 1 s, by the bounded age of its list', async () => {
      expect(await msUntilRouted(b, a, `down-${Date.now()}.example.com`)).toBeLessThan(VISIBLE_WITHIN_MS);
    });

    it('should still answer get-client through both instances', async () => {
      const key = await a.addClient();
      expect(await smsConfigCountThroughA(key)).toBe(0);
      expect(await smsConfigCountThroughB(key)).toBe(0);
    });

    it('should show a configuration added through B in A within 1 s', async () => {
      const key = await a.addClient();
      expect(await smsConfigCountThroughA(key)).toBe(0);
      expect(await smsConfigCountThroughA(key)).toBe(0);

      expect((await b.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })).status).toBe(200);
      expect(await msUntilVisible(() => smsConfigCountThroughA(key), 1)).toBeLessThanOrEqual(VISIBLE_WITHIN_MS);
    });

    it('should show a configuration added through A in B within 1 s', async () => {
      const key = await a.addClient();
      expect(await smsConfigCountThroughB(key)).toBe(0);
      expect(await smsConfigCountThroughB(key)).toBe(0);

      expect((await a.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })).status).toBe(200);
      expect(await msUntilVisible(() => smsConfigCountThroughB(key), 1)).toBeLessThanOrEqual(VISIBLE_WITHIN_MS);
    });
  });

  describe('once the broker is back', () => {
    let keyCachedWhileDown: string;

    beforeAll(async () => {
      keyCachedWhileDown = await a.addClient();
      expect(await smsConfigCountThroughA(keyCachedWhileDown)).toBe(0);
      await relay.restore();
      await waitFor('instance A to subscribe again', () => cacheA.isLive);
      await waitFor('instance B to reach the broker again', async () => (await brokerSeenByB()) === 'up');
    }, 30_000);

    it('should have dropped what it cached while it could not hear invalidations', () => {
      expect(cacheA.size).toBe(0);
    });

    it('should show a configuration added through B in A within 1 s again', async () => {
      const key = await a.addClient();
      expect(await smsConfigCountThroughA(key)).toBe(0);
      expect(await smsConfigCountThroughA(key)).toBe(0);
      expect(cacheA.isLive).toBe(true);

      expect((await b.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })).status).toBe(200);
      expect(await msUntilVisible(() => smsConfigCountThroughA(key), 1)).toBeLessThan(VISIBLE_WITHIN_MS);
    });
  });
});
