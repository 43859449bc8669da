import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { ClientCache } from '../src/client/client-cache';
import {
  ADMIN_API_KEY,
  AMQP_URL,
  KEY_A,
  MYSQL_SERVER_URL,
  TEST_DATABASE_PREFIX,
  TestApp,
  startTestApp,
  validSmsConfig,
} from './helpers/test-app';
import { TcpRelay } from './helpers/tcp-relay';

/**
 * Two instances on one MySQL database, both reaching RabbitMQ through a relay the test can cut. Instance A runs in
 * this process (its cache can be inspected); instance B is `node dist/main.js` in a child process, because
 * golevelup's connection manager is static and two apps in one process would share (and close) one connection.
 */
const VISIBLE_WITHIN_MS = 1000;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

class ChildInstance {
  private child?: ChildProcess;
  readonly logFile = join(mkdtempSync(join(tmpdir(), 'registry-child-')), 'service.log');

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  async start(): Promise<void> {
    const log = openSync(this.logFile, 'a');
    this.child = spawn(process.execPath, [resolve(__dirname, '..', 'dist', 'main.js')], {
      env: { PATH: process.env.PATH, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', log, log],
    });
    await waitFor('the child instance to be ready', async () => {
      if (this.child?.exitCode !== null) throw new Error(`child exited: ${readFileSync(this.logFile, 'utf8')}`);
      return (await this.health())?.status === 200;
    });
  }

  async health(): Promise<{ status: number; broker?: string } | undefined> {
    try {
      const response = await fetch(`http://127.0.0.1:${this.port}/health`, { signal: AbortSignal.timeout(1000) });
      const body = (await response.json()) as { results?: { broker: string } };
      return { status: response.status, broker: body.results?.broker };
    } catch {
      return undefined;
    }
  }

  async post(path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`http://127.0.0.1:${this.port}${path}`, {
      method: 'POST',
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const killLater = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killLater);
  }
}

describe('cache invalidation across instances', () => {
  let relay: TcpRelay;
  let a: TestApp;
  let cacheA: ClientCache;
  let b: ChildInstance;

  const smsConfigCountThroughA = async (secretKey: string) =>
    ((await a.post('/api/client/get/secretKey', { headers: { secretKey } })).body.results.smsConfig ?? []).length as number;
  const smsConfigCountThroughB = async (secretKey: string) =>
    ((await b.post('/api/client/get/secretKey', { secretKey })).body.results.smsConfig ?? []).length as number;

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
    const database = `${TEST_DATABASE_PREFIX}_multi_instance`;
    const connection = await createConnection(MYSQL_SERVER_URL);
    await connection.query(`DROP DATABASE IF EXISTS ${database}`);
    await connection.query(`CREATE DATABASE ${database}`);
    await connection.end();
    const env = {
      DATABASE_URL: `${MYSQL_SERVER_URL}/${database}`,
      AMQP_URL: `amqp://guest:guest@127.0.0.1:${relay.port}`,
    };
    a = await startTestApp(env);
    cacheA = a.app.get(ClientCache);
    b = new ChildInstance(await freePort(), {
      ...env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      ADMIN_API_KEYS: ADMIN_API_KEY,
      ENCRYPTION_KEYS: KEY_A,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'registry-data-')),
    });
    await b.start();
    await waitFor('instance A to subscribe', () => cacheA.isLive);
    await waitFor('instance B to reach the broker', async () => (await b.health())?.broker === 'up');
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

    expect((await b.post('/api/sms-config/add', { secretKey: key }, validSmsConfig())).status).toBe(200);
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

  describe('with the broker down', () => {
    beforeAll(async () => {
      await relay.cut();
      await waitFor('instance A to notice the broker is gone', () => !cacheA.isLive);
      await waitFor('instance B to notice the broker is gone', async () => (await b.health())?.broker === 'down');
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

      expect((await b.post('/api/sms-config/add', { secretKey: key }, validSmsConfig())).status).toBe(200);
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
      await waitFor('instance B to reach the broker again', async () => (await b.health())?.broker === 'up');
    }, 30_000);

    it('should have dropped what it cached while it could not hear invalidations', () => {
      expect(cacheA.size).toBe(0);
    });

    it('should show a configuration added through B in A within 1 s again', async () => {
      const key = await a.addClient();
      expect(await smsConfigCountThroughA(key)).toBe(0);
      expect(await smsConfigCountThroughA(key)).toBe(0);
      expect(cacheA.isLive).toBe(true);

      expect((await b.post('/api/sms-config/add', { secretKey: key }, validSmsConfig())).status).toBe(200);
      expect(await msUntilVisible(() => smsConfigCountThroughA(key), 1)).toBeLessThan(VISIBLE_WITHIN_MS);
    });
  });
});
