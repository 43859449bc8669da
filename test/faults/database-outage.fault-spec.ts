import { ADMIN_API_KEY, MYSQL_SERVER_URL, validSmsConfig } from '../helpers/test-app';
import { HttpAnswer, ServiceProcess, emptyMysqlDatabase, report, sleep, waitUntil } from '../helpers/service-process';
import { TcpRelay } from '../helpers/tcp-relay';

jest.setTimeout(120000);

const UNAVAILABLE = { status: 503, error: 'Service temporarily unavailable, retry later' };

/** The MySQL database sits behind a relay, so the tests refuse, reset and freeze its connections for real. */
describe('Database outage (MySQL behind a TCP relay)', () => {
  let relay: TcpRelay;
  let service: ServiceProcess;
  let secretKey: string;

  /** Every endpoint that needs the database, with a request that succeeds while it is up. */
  const databaseEndpoints: Array<[string, () => Promise<HttpAnswer>]> = [
    [
      'add client',
      () =>
        service.post('/api/client/add', {
          headers: { 'x-api-key': ADMIN_API_KEY },
          body: { appName: 'a', appUrl: 'https://a.example.com', isHost: true },
        }),
    ],
    ['get client', () => service.post('/api/client/get/secretKey', { headers: { secretKey } })],
    ['add SMS configuration', () => service.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })],
    ['list SMS configurations', () => service.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })],
  ];

  async function timed(call: () => Promise<HttpAnswer>): Promise<{ answer: HttpAnswer; ms: number }> {
    const started = Date.now();
    const answer = await call();
    return { answer, ms: Date.now() - started };
  }

  /**
   * /health answers from the state the service holds, which a failed request or the next background probe (every 2 s,
   * 2 s timeout) turns down: polled until it stops answering 200, for 10 s at most.
   */
  async function healthOnceUnavailable(): Promise<HttpAnswer> {
    const started = Date.now();
    for (;;) {
      const answer = await service.request('GET', '/health');
      if (answer.status !== 200 || Date.now() - started > 10000) return answer;
      await sleep(100);
    }
  }

  /** Each endpoint, and /health, answers 503 in the envelope within the bound; returns the slowest time. */
  async function expectUnavailableWithin(boundMs: number): Promise<number> {
    const results = await Promise.all([...databaseEndpoints.map(([, call]) => timed(call)), timed(healthOnceUnavailable)]);
    for (const { answer, ms } of results) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ status: 503, error: expect.any(String) });
      expect(ms).toBeLessThan(boundMs);
    }
    return Math.max(...results.map(({ ms }) => ms));
  }

  /** Polls until every endpoint succeeds again; returns how long that took. */
  function waitForRecovery(boundMs: number): Promise<number> {
    return waitUntil(
      'every database endpoint answers 200 again',
      async () => {
        const answers = await Promise.all([...databaseEndpoints.map(([, call]) => call()), service.request('GET', '/health')]);
        for (const answer of answers) expect(answer.status).not.toBe(500);
        return answers.every((answer) => answer.status === 200);
      },
      boundMs,
      200,
    );
  }

  beforeAll(async () => {
    const url = new URL(await emptyMysqlDatabase('dbout'));
    const mysql = new URL(MYSQL_SERVER_URL);
    relay = await TcpRelay.start(mysql.hostname, Number(mysql.port || 3306));
    service = await ServiceProcess.start({ DATABASE_URL: relay.rewrite(url.toString()) });
    secretKey = await service.addClient();
  });
  afterAll(async () => {
    await service?.stop();
    await relay?.close();
  });
  afterEach(async () => {
    await relay.restore();
  });

  it('should answer 503 within 5 s on every database endpoint while connections are refused, and recover within 15 s', async () => {
    for (const [name, call] of databaseEndpoints) expect({ name, status: (await call()).status }).toEqual({ name, status: 200 });

    await relay.cut();
    const firstAnswer = await expectUnavailableWithin(5000);
    const health = await service.request('GET', '/health');
    expect(health.body).toEqual({ status: 503, error: 'database is down' });
    for (const [, call] of databaseEndpoints) expect((await call()).body).toEqual(UNAVAILABLE);
    // Declaring an exchange is audited in the database: without it the declaration is refused, never left unrecorded.
    const exchange = await service.post('/api/v1/rabbitmq/exchanges', {
      headers: { 'x-api-key': ADMIN_API_KEY },
      body: { name: 'faults.dbout', type: 'topic' },
    });
    expect(exchange.body).toEqual(UNAVAILABLE);

    await relay.restore();
    const recovery = await waitForRecovery(15000);
    report('database refused', { 'slowest 503': firstAnswer, recovery });
  });

  it('should answer 503 within 5 s while every connection is reset, never 500, and recover within 15 s', async () => {
    relay.reset();
    const firstAnswer = await expectUnavailableWithin(5000);
    for (const [, call] of databaseEndpoints) expect((await call()).body).toEqual(UNAVAILABLE);

    await relay.restore();
    const recovery = await waitForRecovery(15000);
    report('database reset', { 'slowest 503': firstAnswer, recovery });
  });

  it('should survive a one-off reset of its pooled connections without a 500', async () => {
    // Warm the pool so several connections are open, then reset them all while the database stays reachable.
    await Promise.all(Array.from({ length: 8 }, () => databaseEndpoints[1][1]()));
    relay.reset();
    await relay.restore();
    const answers = await Promise.all(databaseEndpoints.map(([, call]) => call()));
    for (const answer of answers) expect([200, 503]).toContain(answer.status);
    const recovery = await waitForRecovery(15000);
    report('database one-off reset', { 'first answers': answers.map((a) => a.status).join('/'), recovery });
  });

  it('should answer a 5xx envelope within 10 s while the database hangs, and the pool should recover', async () => {
    relay.freeze();
    // More requests than the pool has connections, so every connection hangs and callers queue for one.
    const started = Date.now();
    const flood = await Promise.all(
      Array.from({ length: 3 }, () => [...databaseEndpoints.map(([, call]) => timed(call)), timed(healthOnceUnavailable)]).flat(),
    );
    for (const { answer, ms } of flood) {
      // The bound is a 5xx within 10 s; the request deadline gives the promised 503 well before.
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ status: 503, error: expect.any(String) });
      expect(ms).toBeLessThan(10000);
    }
    const slowest = Math.max(...flood.map(({ ms }) => ms));
    expect(Date.now() - started).toBeLessThan(10000);

    await sleep(500);
    await relay.restore();
    const recovery = await waitForRecovery(15000);
    report('database hung', { 'slowest 5xx': slowest, recovery });
  });

  it('should recover when a hung database stays silent and then refuses, once it comes back', async () => {
    relay.freeze();
    const hung = await Promise.all(databaseEndpoints.map(([, call]) => timed(call)));
    for (const { answer, ms } of hung) {
      expect(answer.status).toBe(503);
      expect(ms).toBeLessThan(10000);
    }
    // The held connections are dropped rather than resumed: the pool must replace them.
    await relay.cut();
    await relay.restore();
    const recovery = await waitForRecovery(15000);
    report('database hung then dropped', { 'slowest 5xx': Math.max(...hung.map(({ ms }) => ms)), recovery });
  });

  it('should still be the same process, never restarted', () => {
    expect(service.child.exitCode).toBeNull();
  });
});
