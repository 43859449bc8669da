import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { connect } from 'amqplib';
import { sha256Hex } from '../src/auth/digest';
import { CACHE_INVALIDATION_EXCHANGE, DEPLOYMENT_HEADER } from '../src/client-cache/cache-invalidation.bus';
import { READ_EVERY_MS } from '../src/client-cache/change-sequence';
import { ChangeSequenceRepository } from '../src/client-cache/change-sequence.repository';
import { ClientCache } from '../src/client-cache/client-cache';
import { StatementTally } from '../src/database/statement-tally';
import { ServiceProcess, emptyMysqlDatabase, msUntil, report, sleep } from './helpers/service-process';
import { TcpRelay } from './helpers/tcp-relay';
import { ADMIN_API_KEY, AMQP_URL, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

/**
 * Two instances on one MySQL database, each reaching RabbitMQ through a relay the test can cut. Instance A runs in
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
  let relayB: TcpRelay;
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

  type Instance = TestApp | ServiceProcess;
  type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
  const ADMIN = { 'x-api-key': ADMIN_API_KEY };
  const call = (instance: Instance, method: Method, path: string, headers: Record<string, string>, body?: unknown) =>
    instance instanceof ServiceProcess ? instance.request(method, path, { headers, body }) : instance.send(method, path, { headers, body });
  const getClientStatus = async (instance: Instance, secretKey: string) =>
    (await call(instance, 'POST', '/api/client/get/secretKey', { secretKey })).status;

  // Past three times the bound, the caller's expectation fails.
  const msUntilSeen = (check: () => Promise<boolean>) => msUntil(check, 3 * VISIBLE_WITHIN_MS);

  /** A new client's key whose get-client answer `reader` holds (while its bus is heard, for up to a minute). */
  async function keyCachedIn(reader: Instance, appName = `cached-${Date.now()}`): Promise<string> {
    const key = await a.addClient({ appName });
    expect(await getClientStatus(reader, key)).toBe(200);
    expect(await getClientStatus(reader, key)).toBe(200);
    return key;
  }

  type Refusals = { host: number; key: number; client: number; scopedKeyAnswer: number; scopedKey: number };

  /**
   * A host removed, a key revoked (rotated with no grace), a client disabled and a scoped key deleted through `writer`: ms
   * until `reader` refuses each; and until a client:read key shows on `reader` a configuration added through `writer`.
   */
  async function msUntilRefused(writer: Instance, reader: Instance): Promise<Refusals> {
    const host = `removed-${Date.now()}.example.com`;
    const routed = await clientSendingTo(host);
    const approved = await a.post('/api/v1/provider-hosts', { headers: ADMIN, body: { host } });
    expect(approved.status).toBe(200);
    await waitFor('the reader to route to the approved host', async () => (await candidatesThrough(reader, routed)).length === 1, 5000);
    const removed = await call(writer, 'DELETE', `/api/v1/provider-hosts/${approved.body.results.providerHostId}`, ADMIN);
    expect(removed.status).toBe(200);
    const hostMs = await msUntilSeen(async () => (await candidatesThrough(reader, routed)).length === 0);

    const revoked = await keyCachedIn(reader);
    const rotated = await call(writer, 'POST', '/api/v1/client/secret-key/rotate', { secretKey: revoked }, { graceSeconds: 0 });
    expect(rotated.status).toBe(200);
    const keyMs = await msUntilSeen(async () => (await getClientStatus(reader, revoked)) === 404);

    const appName = `disabled-${Date.now()}`;
    const disabled = await keyCachedIn(reader, appName);
    const clientId = (await a.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    expect((await call(writer, 'PATCH', `/api/v1/clients/${clientId}`, ADMIN, { isActive: false })).status).toBe(200);
    const clientMs = await msUntilSeen(async () => (await getClientStatus(reader, disabled)) === 403);

    const rootKey = await a.addClient();
    const made = await call(writer, 'POST', '/api/v1/client/keys', { secretKey: rootKey }, { name: 'reader', scopes: ['client:read'] });
    const scoped = made.body.results.secretKey as string;
    const configsThroughScoped = async () =>
      ((await call(reader, 'POST', '/api/client/get/secretKey', { secretKey: scoped })).body.results.smsConfig ?? []).length as number;
    expect(await configsThroughScoped()).toBe(0);
    expect(await configsThroughScoped()).toBe(0);
    expect((await call(writer, 'POST', '/api/sms-config/add', { secretKey: rootKey }, validSmsConfig())).status).toBe(200);
    const scopedKeyAnswerMs = await msUntilSeen(async () => (await configsThroughScoped()) === 1);
    expect((await call(writer, 'DELETE', `/api/v1/client/keys/${made.body.results.keyId}`, { secretKey: rootKey })).status).toBe(200);
    const scopedKeyMs = await msUntilSeen(async () => (await getClientStatus(reader, scoped)) === 404);
    return { host: hostMs, key: keyMs, client: clientMs, scopedKeyAnswer: scopedKeyAnswerMs, scopedKey: scopedKeyMs };
  }

  function expectRefusedWithinBound(ms: Refusals): void {
    const late = Object.entries(ms).filter(([, elapsed]) => elapsed >= VISIBLE_WITHIN_MS);
    expect(late).toEqual([]);
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
    relayB = await TcpRelay.start(new URL(AMQP_URL).hostname, Number(new URL(AMQP_URL).port || 5672));
    const env = {
      DATABASE_URL: await emptyMysqlDatabase('multi_instance'),
      AMQP_URL: relay.rewrite(AMQP_URL),
      DISPATCHER_API_KEYS: DISPATCHER_API_KEY,
    };
    a = await startTestApp(env);
    cacheA = a.app.get(ClientCache);
    b = await ServiceProcess.start({ ...env, AMQP_URL: relayB.rewrite(AMQP_URL) });
    await waitFor('instance A to subscribe', () => cacheA.isLive);
    await waitFor('instance B to reach the broker', async () => (await brokerSeenByB()) === 'up');
  }, 90_000);

  afterAll(async () => {
    await b?.stop();
    await a?.close();
    await relay?.close();
    await relayB?.close();
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

  describe("with the bus up but the writer's messages lost", () => {
    let publish: jest.SpyInstance;

    beforeAll(() => {
      const amqp = a.app.get(AmqpConnection);
      const send = amqp.publish.bind(amqp);
      publish = jest
        .spyOn(amqp, 'publish')
        .mockImplementation((exchange: string, ...rest: unknown[]) =>
          exchange === CACHE_INVALIDATION_EXCHANGE
            ? Promise.resolve(true)
            : (send as (...all: unknown[]) => Promise<boolean>)(exchange, ...rest),
        );
    });
    afterAll(() => publish.mockRestore());

    it('should refuse on B within 1 s, by the change sequence: a host removed, a key revoked and a client disabled through A', async () => {
      expect(await brokerSeenByB()).toBe('up');
      const ms = await msUntilRefused(a, b);
      report('invalidation message lost', ms);
      expect(publish.mock.calls.filter(([exchange]) => exchange === CACHE_INVALIDATION_EXCHANGE).length).toBeGreaterThan(0);
      expectRefusedWithinBound(ms);
    });
  });

  describe('two deployments on one vhost', () => {
    let connection: Awaited<ReturnType<typeof connect>>;
    let channel: Awaited<ReturnType<Awaited<ReturnType<typeof connect>>['createChannel']>>;
    const send = (line: string, headers?: Record<string, string>) =>
      channel.publish(CACHE_INVALIDATION_EXCHANGE, '', Buffer.from(line), headers ? { headers } : {});

    beforeAll(async () => {
      connection = await connect(AMQP_URL);
      channel = await connection.createChannel();
    });
    afterAll(() => connection?.close());

    it("should keep what A caches when another deployment's message names it, and drop it for a message without identity", async () => {
      const [{ id: identity }] = await a.dataSource.query<Array<{ id: string }>>('SELECT id FROM deployment');
      expect(identity).toMatch(/^[0-9a-f]{32}$/);
      const digest = sha256Hex(await keyCachedIn(a));
      const marker = sha256Hex(await keyCachedIn(a));
      send(`key:${digest}\nprovider-hosts`, { [DEPLOYMENT_HEADER]: 'f'.repeat(32) });
      // One queue keeps the order: once A applied its own deployment's message, it has read the other one.
      send(`key:${marker}`, { [DEPLOYMENT_HEADER]: identity });
      await waitFor("A to apply its own deployment's message", () => cacheA.lookupOwner(marker) === undefined, 5000);
      expect(cacheA.lookupOwner(digest)).toBeDefined();

      send(`key:${digest}`);
      await waitFor('A to apply a message of the previous release', () => cacheA.lookupOwner(digest) === undefined, 5000);
    });
  });

  it('should cost each instance one read of the change sequence per interval, idle or while another instance writes', async () => {
    const tally = a.app.get(StatementTally);
    const reads = jest.spyOn(a.app.get(ChangeSequenceRepository), 'readFrom');
    const perSecond = async (during: () => Promise<unknown>) => {
      const [statements, read, started] = [tally.total, reads.mock.calls.length, Date.now()];
      await during();
      const seconds = (Date.now() - started) / 1000;
      return { statements: (tally.total - statements) / seconds, reads: (reads.mock.calls.length - read) / seconds };
    };
    const keys = await Promise.all(Array.from({ length: 4 }, () => a.addClient()));
    try {
      const idle = await perSecond(() => sleep(3000));
      let writes = 0;
      const busy = await perSecond(async () => {
        for (const until = Date.now() + 3000; Date.now() < until; writes++) {
          const added = await b.post('/api/sms-config/add', { headers: { secretKey: keys[writes % keys.length] }, body: validSmsConfig() });
          expect(added.status).toBe(200);
          await sleep(40);
        }
      });
      report('change sequence cost on A (statements and sequence reads per second)', {
        idleStatements: idle.statements.toFixed(2),
        idleReads: idle.reads.toFixed(2),
        busyStatements: busy.statements.toFixed(2),
        busyReads: busy.reads.toFixed(2),
        writesThroughB: String(writes),
      });
      for (const { reads: perInterval } of [idle, busy]) {
        expect(perInterval).toBeGreaterThanOrEqual(1000 / 500 - 0.5);
        expect(perInterval).toBeLessThanOrEqual(1000 / READ_EVERY_MS + 0.5);
      }
    } finally {
      reads.mockRestore();
    }
  });

  describe('with the broker down', () => {
    beforeAll(async () => {
      await relay.cut();
      await relayB.cut();
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

    it('should refuse on A within 1 s a host removed, a key revoked and a client disabled through B', async () => {
      expectRefusedWithinBound(await msUntilRefused(b, a));
    });
  });

  describe('once the broker is back', () => {
    let keyCachedWhileDown: string;

    beforeAll(async () => {
      keyCachedWhileDown = await a.addClient();
      expect(await smsConfigCountThroughA(keyCachedWhileDown)).toBe(0);
      await relay.restore();
      await relayB.restore();
      await waitFor('instance A to subscribe again', () => cacheA.isLive);
      // B's back-off may have grown to 16 s while the broker was down (src/broker-connection/reconnect-backoff.ts).
      await waitFor('instance B to reach the broker again', async () => (await brokerSeenByB()) === 'up', 30_000);
    }, 45_000);

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

  // Last: B's reconnect back-off after this would hold up what followed.
  describe("with the writer's broker unreachable and the reader's bus up", () => {
    beforeAll(async () => {
      await relayB.cut();
      await waitFor('instance B to notice the broker is gone', async () => (await brokerSeenByB()) === 'down');
    });

    it('should refuse on A within 1 s, by the change sequence: a host removed, a key revoked and a client disabled through B', async () => {
      expect(cacheA.isLive).toBe(true);
      const ms = await msUntilRefused(b, a);
      report('writer without broker', ms);
      expectRefusedWithinBound(ms);
    });

    it('should refuse a scoped key at its end on both instances, whichever made it', async () => {
      const rootKey = await a.addClient();
      const made = await call(b, 'POST', '/api/v1/client/keys', { secretKey: rootKey }, { name: 'short-lived', scopes: ['client:read'] });
      const scoped = made.body.results.secretKey as string;
      // An end a test can wait for (the service takes none under 60 s), set before either instance has read the key.
      const endsAt = Date.now() + 2000;
      const storedEnd = new Date(endsAt).toISOString().slice(0, 23).replace('T', ' ');
      await a.dataSource.query('UPDATE client_key SET expires_at = ? WHERE id = ?', [storedEnd, made.body.results.keyId]);
      for (const instance of [a, b, a, b]) expect(await getClientStatus(instance, scoped)).toBe(200);
      await sleep(endsAt - Date.now());
      // From the end itself, not from each poll's start.
      const msAfterEnd = async (instance: Instance) => {
        await msUntilSeen(async () => (await getClientStatus(instance, scoped)) === 404);
        return Date.now() - endsAt;
      };
      const ms = { a: await msAfterEnd(a), b: await msAfterEnd(b) };
      report('scoped key past its end', ms);
      expect(Object.entries(ms).filter(([, elapsed]) => elapsed >= VISIBLE_WITHIN_MS)).toEqual([]);
    });
  });
});
