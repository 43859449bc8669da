import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../src/auth/digest';
import { ClientCache } from '../src/client-cache/client-cache';
import { METRICS_CACHE_MS } from '../src/metrics/metrics-renderer';
import { EventConsumer } from './helpers/event-consumer';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const DISPATCHER_ACTOR = `dispatcher:${sha256Hex(DISPATCHER_API_KEY).slice(0, 8)}`;
/** DISPATCH_UNHEALTHY_MS for these tests: long enough to see a configuration skipped, short enough to wait out. */
const UNHEALTHY_MS = 1500;
const DISPATCH_EVENTS = ['sms-config.balance-low', 'sms-config.unhealthy', 'sms-config.healthy'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Dispatch on two instances over one database: A takes the reports, B answers the routing, so what B answers shows
 * that every instance sees a report at once.
 */
describe('Dispatch: routing and outcome reports', () => {
  let a: TestApp;
  let b: TestApp;
  let events: EventConsumer;

  beforeAll(async () => {
    const databaseUrl = await testDatabaseUrl();
    const env = { DATABASE_URL: databaseUrl, DISPATCH_UNHEALTHY_MS: String(UNHEALTHY_MS) };
    a = await startTestApp(env);
    b = await startTestApp(env, { keepData: true });
    await approveProviderHosts(a);
    // Two instances on one SQLite file may both publish an entry, with its message-id (docs/events.md).
    events = await EventConsumer.bind('sms-config.*', undefined, { repeatsDropped: process.env.TEST_DATABASE === 'sqlite' });
  });
  afterAll(async () => {
    await events.close();
    await b.close();
    await a.close();
  });
  beforeEach(() => a.reset());

  async function newClient(overrides: Record<string, unknown> = {}) {
    const appName = `dispatch-${Math.random().toString(36).slice(2)}`;
    const secretKey = await a.addClient({ appName, ...overrides });
    const clientId = (await a.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    return { secretKey, clientId };
  }

  /** Adds a configuration and answers its id. */
  async function addConfig(secretKey: string, fields: Record<string, unknown> = {}): Promise<number> {
    const added = await a.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig(fields) });
    expect(added.status).toBe(200);
    const list = (await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
    return list[list.length - 1].smsConfigId as number;
  }

  const routeOn = (app: TestApp, secretKey: string, body?: unknown) =>
    app.post('/api/v1/dispatch/route', { headers: { ...DISPATCHER, secretKey }, body });
  const report = (app: TestApp, body: unknown) => app.post('/api/v1/dispatch/outcomes', { headers: DISPATCHER, body });
  const candidateIds = (answer: { body: any }) => answer.body.results.candidates.map((c: { smsConfigId: number }) => c.smsConfigId);
  const viewOf = async (secretKey: string, smsConfigId: number) =>
    (await a.get(`/api/v1/sms-configs/${smsConfigId}`, { secretKey })).body.results;
  /** Waits for B's gauge to read `count`: /metrics is rendered at most once a second (METRICS_CACHE_MS). */
  async function unhealthyGaugeOnB(count: number): Promise<void> {
    const start = Date.now();
    const gauge = async () => /^dispatch_sms_configs_unhealthy (\d+)$/m.exec((await b.get('/metrics')).raw)?.[1];
    while ((await gauge()) !== String(count)) {
      if (Date.now() - start > METRICS_CACHE_MS + 1000) throw new Error(`dispatch_sms_configs_unhealthy did not read ${count}`);
      await sleep(50);
    }
  }
  const dispatchEventsOf = (clientId: number) =>
    events.matching((body) => body.clientId === clientId && DISPATCH_EVENTS.includes(body.action));

  describe('routing', () => {
    it('should order the preferred gateway (any case) first, then lower cost, higher balance, lower id, each with a token that resolves', async () => {
      const { secretKey, clientId } = await newClient({ preferredSmsGateway: 'TWILIO' });
      const cheapPoor = await addConfig(secretKey, { providerName: 'nexmo', perSmsCost: 0.01, balance: 10 });
      const cheapRich = await addConfig(secretKey, { providerName: 'nexmo', perSmsCost: 0.01, balance: 20, senderId: null });
      const cheapRichToo = await addConfig(secretKey, { providerName: 'plivo', perSmsCost: 0.01, balance: 20 });
      const preferred = await addConfig(secretKey, { providerName: 'Twilio', perSmsCost: 0.05, balance: 1 });

      const answer = await routeOn(b, secretKey);
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(candidateIds(answer)).toEqual([preferred, cheapRich, cheapRichToo, cheapPoor]);
      expect(answer.body.results.clientId).toBe(clientId);
      expect(answer.body.results.skipped).toEqual([]);
      expect(answer.body.results.candidates[1]).toEqual({
        smsConfigId: cheapRich,
        providerName: 'nexmo',
        smsApi: 'https://api.twilio.com/send',
        senderId: null,
        smsType: 'Transactional',
        balance: 20,
        perSmsCost: 0.01,
        verifyApiKey: expect.stringMatching(/^[A-Za-z0-9_-]{64,}$/),
      });
      // Nothing secret: no credential of the configuration, nor the client's key.
      for (const secret of [validSmsConfig().password, validSmsConfig().apiKey, secretKey]) expect(answer.raw).not.toContain(secret);

      const resolved = await a.post('/api/v1/sms-configs/resolve', {
        headers: DISPATCHER,
        body: { verifyApiKey: answer.body.results.candidates[0].verifyApiKey },
      });
      expect(resolved.status).toBe(200);
      expect(resolved.body.results).toMatchObject({ smsConfigId: preferred, apiKey: validSmsConfig().apiKey });
    });

    it('should skip each configuration with its first reason, and answer no candidates when none is usable', async () => {
      const { secretKey } = await newClient();
      const inactive = await addConfig(secretKey, { isActive: false, smsType: 'Promotional' });
      const otherType = await addConfig(secretKey, { smsType: 'Promotional' });
      const unhealthy = await addConfig(secretKey);
      const poor = await addConfig(secretKey, { balance: 0.02, perSmsCost: 0.01 });
      const usable = await addConfig(secretKey, { smsType: 'TRANSACTIONAL', balance: 100 });
      expect((await report(a, { smsConfigId: unhealthy, sent: 0, failed: 5 })).body.results.healthy).toBe(false);

      const answer = await routeOn(b, secretKey, { smsType: 'transactional', count: 3 });
      expect(answer.body.results).toEqual({
        clientId: expect.any(Number),
        candidates: [expect.objectContaining({ smsConfigId: usable, smsType: 'TRANSACTIONAL' })],
        skipped: [
          { smsConfigId: inactive, reason: 'inactive' },
          { smsConfigId: otherType, reason: 'smsType' },
          { smsConfigId: unhealthy, reason: 'unhealthy' },
          { smsConfigId: poor, reason: 'balance' },
        ],
      });
      // Two messages are covered by 0.02 at 0.01 each: exactly.
      expect(candidateIds(await routeOn(b, secretKey, { count: 2 }))).toEqual([poor, usable, otherType]);
      // Every configuration skipped.
      const none = await routeOn(b, secretKey, { smsType: 'flash' });
      expect(none.status).toBe(200);
      expect(none.body.results.candidates).toEqual([]);
      expect(none.body.results.skipped.map((skip: { reason: string }) => skip.reason)).toEqual([
        'inactive',
        'smsType',
        'smsType',
        'smsType',
        'smsType',
      ]);
    });

    it('should answer a client with no configuration with nothing to try, with no body, an empty one or {}', async () => {
      const { secretKey, clientId } = await newClient();
      for (const body of [undefined, {}]) {
        expect((await routeOn(b, secretKey, body)).body).toEqual({ status: 200, results: { clientId, candidates: [], skipped: [] } });
      }
    });

    it.each([
      [{ count: 0 }, 'count must be an integer from 1 to 10000'],
      [{ count: 10001 }, 'count must be an integer from 1 to 10000'],
      [{ count: 1.5 }, 'count must be an integer from 1 to 10000'],
      [{ count: '2' }, 'count must be an integer from 1 to 10000'],
      [{ smsType: 7 }, 'smsType must be a string'],
      [{ smsType: 'x'.repeat(51) }, 'smsType must be shorter than or equal to 50 characters'],
      [{ sms: 'Transactional' }, 'property sms should not exist'],
    ])('should refuse %p with 400 naming the field', async (body, error) => {
      const { secretKey } = await newClient();
      expect((await routeOn(b, secretKey, body)).body).toEqual({ status: 400, error });
    });

    it('should take the dispatcher key with the client key: unknown 401, disabled 403, previous key in grace, admin 403, either alone 401', async () => {
      const { secretKey, clientId } = await newClient();
      await addConfig(secretKey);
      const route = (headers: Record<string, string>) => b.post('/api/v1/dispatch/route', { headers });

      expect((await route({ ...DISPATCHER, secretKey: 'sk_unknown_key_0123456789abcdefghijklmnopqrstuv' })).body).toEqual({
        status: 401,
        error: 'secretKey is not valid',
      });
      expect((await route({ ...ADMIN, secretKey })).body).toEqual({
        status: 403,
        error: 'x-api-key is an admin key; only a dispatcher key may dispatch',
      });
      expect((await route({ secretKey })).body).toEqual({ status: 401, error: 'x-api-key header is required' });
      expect((await route(DISPATCHER)).body).toEqual({ status: 401, error: 'secretKey header is required' });

      const rotated = await a.post('/api/v1/client/secret-key/rotate', { headers: { secretKey }, body: { graceSeconds: 60 } });
      expect(rotated.status).toBe(200);
      const fromPrevious = await route({ ...DISPATCHER, secretKey });
      expect(fromPrevious.status).toBe(200);
      expect(fromPrevious.body.results.candidates).toHaveLength(1);
      // A token taken with the previous key resolves while that key does.
      const resolved = await a.post('/api/v1/sms-configs/resolve', {
        headers: DISPATCHER,
        body: { verifyApiKey: fromPrevious.body.results.candidates[0].verifyApiKey },
      });
      expect(resolved.status).toBe(200);

      expect((await a.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: false } })).status).toBe(200);
      expect((await route({ ...DISPATCHER, secretKey: rotated.body.results.secretKey })).body).toEqual({
        status: 403,
        error: 'Client is disabled',
      });
    });
  });

  describe('outcome reports', () => {
    it('should debit perSmsCost × sent exactly to 6 decimals, below zero too, and set the provider’s own figure', async () => {
      const { secretKey } = await newClient();
      const id = await addConfig(secretKey, { balance: 10.1, perSmsCost: 0.000001 });
      expect((await report(a, { smsConfigId: id, sent: 3, failed: 0 })).body).toEqual({
        status: 200,
        results: { smsConfigId: id, balance: 10.099997, healthy: true, unhealthyUntil: null },
      });
      expect(
        (await a.send('PATCH', `/api/v1/sms-configs/${id}`, { headers: { secretKey }, body: { balance: 0.3, perSmsCost: 0.1 } })).status,
      ).toBe(200);
      // 0.3 - 0.1 - 0.1 - 0.1 is not 0 in doubles.
      for (let index = 0; index < 3; index++) await report(a, { smsConfigId: id, sent: 1, failed: 0 });
      expect((await viewOf(secretKey, id)).balance).toBe(0);
      expect((await report(a, { smsConfigId: id, sent: 7, failed: 2 })).body.results.balance).toBe(-0.7);
      expect((await report(a, { smsConfigId: id, sent: 0, failed: 0, balance: 123456.654321 })).body.results.balance).toBe(123456.654321);
      expect((await report(a, { smsConfigId: id, sent: 0, failed: 0, balance: -12.5 })).body.results.balance).toBe(-12.5);
      // The list (get-all-by-client-id) reads the stored balance.
      const listed = (await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
      expect(listed[0].balance).toBe(-12.5);
    });

    it('should keep money exact on both databases: 100000000000 less 10 × 0.000001 is 99999999999.99999 in every answer', async () => {
      const { secretKey } = await newClient();
      const id = await addConfig(secretKey, { balance: 100000000000, perSmsCost: 0.000001 });
      const answers = [];
      for (let index = 0; index < 10; index++) answers.push(await report(index % 2 === 0 ? a : b, { smsConfigId: id, sent: 1, failed: 0 }));
      // Each debit shows: a double would have kept 100000000000 all along (on SQLite it did).
      expect(answers.map((answer) => /"balance":([^,]+),/.exec(answer.raw)?.[1])).toEqual([
        '99999999999.999999',
        '99999999999.999998',
        '99999999999.999997',
        '99999999999.999996',
        '99999999999.999995',
        '99999999999.999994',
        '99999999999.999993',
        '99999999999.999992',
        '99999999999.999991',
        '99999999999.99999',
      ]);
      const exact = '"balance":99999999999.99999,';
      expect(answers[9].raw).toBe(`{"status":200,"results":{"smsConfigId":${id},${exact}"healthy":true,"unhealthyUntil":null}}`);
      // B reads what A wrote, from the database: the v1 read, the seed's list, get-client (a miss, then its cached text).
      expect((await b.get(`/api/v1/sms-configs/${id}`, { secretKey })).raw).toContain(exact);
      expect((await b.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).raw).toContain(exact);
      for (let hit = 0; hit < 2; hit++)
        expect((await b.post('/api/client/get/secretKey', { headers: { secretKey } })).raw).toContain(exact);
      const routed = await routeOn(b, secretKey);
      expect(routed.raw).toContain(`${exact}"perSmsCost":0.000001,`);
      // A report retried with its Idempotency-Key answers the same digits.
      const send = () =>
        a.post('/api/v1/dispatch/outcomes', {
          headers: { ...DISPATCHER, 'idempotency-key': 'exact-1' },
          body: { smsConfigId: id, sent: 0, failed: 1 },
        });
      const first = await send();
      expect(first.raw).toContain(exact);
      expect((await send()).raw).toBe(first.raw);
    });

    it('should answer the seed’s amounts byte for byte as before: the number a double prints', async () => {
      const { secretKey } = await newClient();
      await addConfig(secretKey, { balance: 12.5, perSmsCost: 0.000001 });
      await addConfig(secretKey, { balance: 0, perSmsCost: 1234567890.123456 });
      await addConfig(secretKey, { balance: 999999999999.5, perSmsCost: 0.1 });
      const listed = await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } });
      const got = await a.post('/api/client/get/secretKey', { headers: { secretKey } });
      for (const answer of [listed, got]) {
        expect(answer.raw).toBe(JSON.stringify(answer.body));
        expect(answer.raw).toContain('"balance":12.5,"perSmsCost":0.000001,');
        expect(answer.raw).toContain('"balance":0,"perSmsCost":1234567890.123456,');
        expect(answer.raw).toContain('"balance":999999999999.5,"perSmsCost":0.1,');
      }
    });

    it('should read and debit a configuration the previous release wrote or changed (its DECIMAL columns only)', async () => {
      const { secretKey, clientId } = await newClient();
      const id = await addConfig(secretKey, { balance: 1, perSmsCost: 1, lowBalanceThreshold: 1 });
      const exactOf = async () =>
        (
          await a.dataSource.query(
            `SELECT CAST(balance_micros AS ${a.dataSource.options.type === 'mysql' ? 'CHAR' : 'TEXT'}) AS micros FROM sms_config WHERE id = ?`,
            [id],
          )
        )[0].micros;
      expect(await exactOf()).toBe('1000000');
      // As the previous release inserts it: the exact twins left null.
      await a.dataSource.query(
        'UPDATE sms_config SET balance = 20.5, per_sms_cost = 0.25, low_balance_threshold = 20, balance_micros = NULL, ' +
          'per_sms_cost_micros = NULL, low_balance_threshold_micros = NULL WHERE id = ?',
        [id],
      );
      expect(await viewOf(secretKey, id)).toMatchObject({ balance: 20.5, perSmsCost: 0.25, lowBalanceThreshold: 20 });
      expect((await report(a, { smsConfigId: id, sent: 3, failed: 0 })).body.results.balance).toBe(19.75);
      await events.waitFor((body) => body.clientId === clientId && body.action === 'sms-config.balance-low', 1);
      expect(await exactOf()).toBe('19750000');

      // As the previous release changes a row this one wrote: its DECIMAL differs from the twin, and wins.
      await a.dataSource.query('UPDATE sms_config SET balance = 7, low_balance_threshold = NULL WHERE id = ?', [id]);
      expect(await viewOf(secretKey, id)).toMatchObject({ balance: 7, lowBalanceThreshold: null });
      expect((await report(a, { smsConfigId: id, sent: 2, failed: 0 })).body.results.balance).toBe(6.5);
      expect(await exactOf()).toBe('6500000');
      expect((await a.post('/api/client/get/secretKey', { headers: { secretKey } })).body.results.smsConfig[0].balance).toBe(6.5);
    });

    it('should refuse a debit that would leave DECIMAL(18,6), and change nothing', async () => {
      const { secretKey } = await newClient();
      const id = await addConfig(secretKey, { balance: 5, perSmsCost: 999999999 });
      expect((await report(a, { smsConfigId: id, sent: 100000, failed: 0 })).body).toEqual({
        status: 409,
        error: 'balance would fall below -1000000000000: the report was not taken',
      });
      expect((await viewOf(secretKey, id)).balance).toBe(5);
    });

    it('should refuse, among reports that arrive together, only those the ones before them leave no room for', async () => {
      const { secretKey } = await newClient();
      const id = await addConfig(secretKey, { balance: 0, perSmsCost: 400000000000 });
      const answers = await Promise.all(Array.from({ length: 6 }, () => report(a, { smsConfigId: id, sent: 1, failed: 0 })));
      const balances = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.results.balance as number);
      expect(balances.sort((x, y) => y - x)).toEqual([-400000000000, -800000000000]);
      expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body)).toEqual(
        Array(4).fill({ status: 409, error: 'balance would fall below -1000000000000: the report was not taken' }),
      );
      expect((await viewOf(secretKey, id)).balance).toBe(-800000000000);
    });

    it('should lose no debit of 1,000 reports over two instances, 500 at once', async () => {
      const { secretKey } = await newClient();
      const id = await addConfig(secretKey, { balance: 1000, perSmsCost: 0.001, providerName: 'concurrency-provider' });
      const reportsBefore = Number(
        /^dispatch_reports_total\{provider="concurrency-provider"\} (\d+)/m.exec((await a.get('/metrics')).raw)?.[1] ?? 0,
      );
      // Reports of one configuration wait for its row lock one after another: 1,000 at once come within a few percent
      // of the 4.5 s deadline on this machine, so they are sent in two waves of 500 (docs/dispatching.md, How fast).
      const wave = () =>
        Promise.all(Array.from({ length: 500 }, (_, index) => report(index % 2 === 0 ? a : b, { smsConfigId: id, sent: 1, failed: 0 })));
      const answers = [...(await wave()), ...(await wave())];
      expect(answers.map((answer) => answer.status)).toEqual(Array(1000).fill(200));
      // Each answer saw its own balance: every value from 999.999 down to 999, once.
      const balances = answers.map((answer) => answer.body.results.balance as number).sort((x, y) => y - x);
      expect(balances[0]).toBe(999.999);
      expect(new Set(balances).size).toBe(1000);
      expect((await viewOf(secretKey, id)).balance).toBe(999);
      const metrics = (await b.get('/metrics')).raw;
      expect(metrics).toContain(`dispatch_reports_total{provider="concurrency-provider"} ${reportsBefore + 1000}`);
      expect(metrics).toMatch(/^dispatch_sms_sent_total\{provider="concurrency-provider"\} \d+/m);
    });

    it('should label the metrics with a printable provider name of at most 64 characters, whatever the client named it', async () => {
      const { secretKey } = await newClient();
      const providerName = `Evil\r\n\0"\\${'p'.repeat(91)}`;
      const id = await addConfig(secretKey, { providerName: 'Evil' });
      // Control characters are refused since; a name stored before keeps them, and its label must not.
      await a.dataSource.query('UPDATE sms_config SET provider_name = ? WHERE id = ?', [providerName, id]);
      expect((await viewOf(secretKey, id)).providerName).toBe(providerName);
      expect((await report(a, { smsConfigId: id, sent: 1, failed: 0 })).status).toBe(200);

      const label = `evil___"\\${'p'.repeat(55)}`;
      const exposed = `provider="${label.replace(/[\\"]/g, (character) => `\\${character}`)}"`;
      const start = Date.now();
      let scrape = '';
      while (!(scrape = (await a.get('/metrics')).raw).includes(`dispatch_reports_total{${exposed}} 1`)) {
        if (Date.now() - start > METRICS_CACHE_MS + 1000) throw new Error(`no report counted under ${exposed}`);
        await sleep(50);
      }
      expect([...label]).toHaveLength(64);
      // Lines end in LF; no other control character anywhere, and none inside a line.
      for (const line of scrape.split('\n')) expect(line).not.toMatch(/\p{Cc}/u);
      expect(scrape).toContain(`dispatch_sms_sent_total{${exposed}} 1`);
    });

    it('should take a report retried with its Idempotency-Key once, answer it again byte for byte, and refuse another body', async () => {
      const { secretKey } = await newClient();
      const id = await addConfig(secretKey, { balance: 10, perSmsCost: 0.5 });
      const send = (body: unknown, key: string) =>
        a.post('/api/v1/dispatch/outcomes', { headers: { ...DISPATCHER, 'idempotency-key': key }, body });
      const first = await send({ smsConfigId: id, sent: 4, failed: 0 }, 'batch-1');
      expect(first.body.results.balance).toBe(8);
      const retried = await send({ smsConfigId: id, sent: 4, failed: 0 }, 'batch-1');
      expect(retried.raw).toBe(first.raw);
      expect(retried.headers['idempotent-replayed']).toBe('true');
      expect((await viewOf(secretKey, id)).balance).toBe(8);
      expect((await send({ smsConfigId: id, sent: 5, failed: 0 }, 'batch-1')).body).toEqual({
        status: 422,
        error: 'Idempotency-Key was used with a different request',
      });
      expect((await send({ smsConfigId: id, sent: 4, failed: 0 }, 'batch-2')).body.results.balance).toBe(6);
    });

    it('should take 300 reports sent at once with keys of their own once each, and answer each retry with its own answer', async () => {
      const { secretKey } = await newClient();
      const id = await addConfig(secretKey, { balance: 1000, perSmsCost: 0.001 });
      const keys = Array.from({ length: 300 }, (_, index) => `burst-${id}-${index}`);
      const send = (key: string, index: number) =>
        (index % 2 === 0 ? a : b).post('/api/v1/dispatch/outcomes', {
          headers: { ...DISPATCHER, 'idempotency-key': key },
          body: { smsConfigId: id, sent: 1, failed: 0 },
        });
      const first = await Promise.all(keys.map(send));
      expect(first.map((answer) => answer.status)).toEqual(Array(300).fill(200));
      expect(new Set(first.map((answer) => answer.body.results.balance)).size).toBe(300);
      const retried = await Promise.all(keys.map(send));
      expect(retried.map((answer) => [answer.raw, answer.headers['idempotent-replayed']])).toEqual(
        first.map((answer) => [answer.raw, 'true']),
      );
      expect((await viewOf(secretKey, id)).balance).toBe(999.7);
    });

    it.each([
      [{ smsConfigId: 1, sent: 100001, failed: 0 }, 'sent must be an integer from 0 to 100000'],
      [{ smsConfigId: 1, sent: 1, failed: -1 }, 'failed must be an integer from 0 to 100000'],
      [{ smsConfigId: 1, sent: 1.5, failed: 0 }, 'sent must be an integer from 0 to 100000'],
      [{ smsConfigId: 1, failed: 1 }, 'sent must be an integer from 0 to 100000'],
      [{ smsConfigId: 0, sent: 1, failed: 0 }, 'smsConfigId must be a positive number'],
      [
        { smsConfigId: 1, sent: 0, failed: 0 },
        'a report must give one count >= 1 (sent, failed, delivered, undelivered, codesSent or verified) or balance',
      ],
      [
        { smsConfigId: 1, sent: 0, failed: 0, balance: 1.1234567 },
        'balance must be a number > -1000000000000 and < 1000000000000 with at most 6 decimal places',
      ],
      [{ smsConfigId: 1, sent: 1, failed: 0, cost: 2 }, 'property cost should not exist'],
    ])('should refuse the report %p with 400 naming the problem', async (body, error) => {
      expect((await report(a, body)).body).toEqual({ status: 400, error });
    });

    it('should answer 404 for an unknown configuration, and take only a dispatcher key', async () => {
      expect((await report(a, { smsConfigId: 999999, sent: 1, failed: 0 })).body).toEqual({
        status: 404,
        error: 'SMS configuration not found',
      });
      const body = { smsConfigId: 999999, sent: 1, failed: 0 };
      expect((await a.post('/api/v1/dispatch/outcomes', { headers: ADMIN, body })).status).toBe(403);
      const { secretKey } = await newClient();
      expect((await a.post('/api/v1/dispatch/outcomes', { headers: { secretKey }, body })).body).toEqual({
        status: 401,
        error: 'x-api-key header is required',
      });
    });
  });

  describe('health', () => {
    it('should skip a configuration after 5 failures, offer it last after DISPATCH_UNHEALTHY_MS, and make it healthy on a send, announcing each crossing once', async () => {
      const { secretKey, clientId } = await newClient();
      const flaky = await addConfig(secretKey, { perSmsCost: 0.001 });
      const steady = await addConfig(secretKey, { perSmsCost: 0.01 });
      for (let failure = 1; failure <= 4; failure++) {
        expect((await report(a, { smsConfigId: flaky, sent: 0, failed: 1 })).body.results.healthy).toBe(true);
      }
      const turned = (await report(a, { smsConfigId: flaky, sent: 0, failed: 1 })).body.results;
      expect(turned).toMatchObject({ healthy: false, unhealthyUntil: expect.any(String) });
      const until = Date.parse(turned.unhealthyUntil);
      expect(until - Date.now()).toBeGreaterThan(UNHEALTHY_MS - 1000);
      expect(until - Date.now()).toBeLessThanOrEqual(UNHEALTHY_MS);

      // B sees it at once.
      const skipping = await routeOn(b, secretKey);
      expect(candidateIds(skipping)).toEqual([steady]);
      expect(skipping.body.results.skipped).toEqual([{ smsConfigId: flaky, reason: 'unhealthy' }]);
      // More failures while skipped neither extend it nor announce it again.
      expect((await report(a, { smsConfigId: flaky, sent: 0, failed: 3 })).body.results.unhealthyUntil).toBe(turned.unhealthyUntil);
      // Counted as not healthy until it sends again, offered again or not.
      await unhealthyGaugeOnB(1);

      await sleep(until - Date.now() + 50);
      expect(candidateIds(await routeOn(b, secretKey))).toEqual([steady, flaky]);
      // One failed probe: unhealthy as long again, without an event.
      const again = (await report(a, { smsConfigId: flaky, sent: 0, failed: 1 })).body.results;
      expect(Date.parse(again.unhealthyUntil)).toBeGreaterThan(until);
      expect(candidateIds(await routeOn(b, secretKey))).toEqual([steady]);

      await sleep(Date.parse(again.unhealthyUntil) - Date.now() + 50);
      expect(candidateIds(await routeOn(b, secretKey))).toEqual([steady, flaky]);
      expect((await report(a, { smsConfigId: flaky, sent: 1, failed: 0 })).body.results).toEqual({
        smsConfigId: flaky,
        balance: expect.any(Number),
        healthy: true,
        unhealthyUntil: null,
      });
      expect(candidateIds(await routeOn(b, secretKey))).toEqual([flaky, steady]);
      await unhealthyGaugeOnB(0);

      const published = await events.waitFor((body) => body.clientId === clientId && DISPATCH_EVENTS.includes(body.action), 2);
      await sleep(300);
      expect(dispatchEventsOf(clientId).map((event) => [event.routingKey, event.body.smsConfigId, event.body.actor])).toEqual([
        ['sms-config.unhealthy', flaky, DISPATCHER_ACTOR],
        ['sms-config.healthy', flaky, DISPATCHER_ACTOR],
      ]);
      for (const secret of [validSmsConfig().password, validSmsConfig().apiKey, secretKey]) {
        for (const event of published) expect(event.raw).not.toContain(secret);
      }
      // Audited once per crossing, newest first, and not once per report (eleven reports were taken).
      const audited = (await a.get(`/api/v1/audit-events?clientId=${clientId}`, ADMIN)).body.results.items.filter(
        (entry: { actor: string }) => entry.actor === DISPATCHER_ACTOR,
      );
      expect(audited.map((entry: { action: string }) => entry.action)).toEqual(['sms-config.healthy', 'sms-config.unhealthy']);
    });
  });

  describe('low balance', () => {
    it('should publish sms-config.balance-low once per crossing below lowBalanceThreshold, again only after the balance rose to it', async () => {
      const { secretKey, clientId } = await newClient();
      const id = await addConfig(secretKey, { balance: 6, perSmsCost: 1, lowBalanceThreshold: 5 });
      const balanceAfter = async (body: Record<string, unknown>) =>
        (await report(a, { smsConfigId: id, sent: 0, failed: 0, ...body })).body.results.balance;
      expect(await balanceAfter({ sent: 1 })).toBe(5); // at the threshold: not below
      expect(await balanceAfter({ sent: 1 })).toBe(4); // crossing 1
      expect(await balanceAfter({ sent: 1 })).toBe(3); // still below
      expect(await balanceAfter({ balance: 4.5 })).toBe(4.5); // the provider's figure, still below
      expect(await balanceAfter({ balance: 5 })).toBe(5); // back at it
      expect(await balanceAfter({ balance: 4.999999 })).toBe(4.999999); // crossing 2
      expect((await a.send('PATCH', `/api/v1/sms-configs/${id}`, { headers: { secretKey }, body: { balance: 50 } })).status).toBe(200);
      expect(await balanceAfter({ sent: 46 })).toBe(4); // crossing 3

      await events.waitFor((body) => body.clientId === clientId && body.action === 'sms-config.balance-low', 3);
      await sleep(300);
      expect(dispatchEventsOf(clientId).map((event) => [event.routingKey, event.body.smsConfigId])).toEqual([
        ['sms-config.balance-low', id],
        ['sms-config.balance-low', id],
        ['sms-config.balance-low', id],
      ]);
    });

    it('should audit and publish sms-config.balance-set for a report that sets the balance, and nothing for a debit', async () => {
      const { secretKey, clientId } = await newClient();
      const id = await addConfig(secretKey, { balance: 10, perSmsCost: 1 });
      const audited = async () =>
        ((await a.get(`/api/v1/audit-events?clientId=${clientId}`, ADMIN)).body.results.items as Array<{ actor: string }>).filter(
          (entry) => entry.actor === DISPATCHER_ACTOR,
        );
      expect((await report(a, { smsConfigId: id, sent: 2, failed: 1 })).body.results.balance).toBe(8);
      expect(await audited()).toEqual([]);

      expect((await report(a, { smsConfigId: id, sent: 0, failed: 0, balance: 42.5 })).body.results.balance).toBe(42.5);
      const [entry, ...others] = await audited();
      expect(others).toEqual([]);
      expect(entry).toEqual({
        eventId: expect.any(String),
        occurredAt: expect.any(String),
        action: 'sms-config.balance-set',
        actor: DISPATCHER_ACTOR,
        clientId,
        smsConfigId: id,
        requestId: expect.any(String),
        callerRequestId: null,
        changed: [],
        details: null,
        sourceAddress: '127.0.0.1',
        userAgent: 'lightMyRequest',
      });
      const [published] = await events.waitFor((body) => body.clientId === clientId && body.action === 'sms-config.balance-set', 1);
      expect(published.routingKey).toBe('sms-config.balance-set');
      const { sourceAddress: _address, userAgent: _agent, ...publishedEntry } = entry as Record<string, unknown>;
      expect(published.body).toEqual(publishedEntry);
      await sleep(300);
      expect(events.matching((body) => body.clientId === clientId && body.actor === DISPATCHER_ACTOR)).toHaveLength(1);
    });

    it('should keep lowBalanceThreshold on add and PATCH, show it on the v1 reads, and never in the seed’s answers', async () => {
      const { secretKey } = await newClient();
      const id = await addConfig(secretKey, { lowBalanceThreshold: 2.5 });
      expect((await viewOf(secretKey, id)).lowBalanceThreshold).toBe(2.5);
      const listed = await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } });
      const got = await a.post('/api/client/get/secretKey', { headers: { secretKey } });
      for (const answer of [listed, got]) expect(answer.raw).not.toContain('lowBalanceThreshold');

      const patched = await a.send('PATCH', `/api/v1/sms-configs/${id}`, { headers: { secretKey }, body: { lowBalanceThreshold: null } });
      expect(patched.body.results.lowBalanceThreshold).toBeNull();
      expect((await viewOf(secretKey, id)).lowBalanceThreshold).toBeNull();
      expect(
        (await a.send('PATCH', `/api/v1/sms-configs/${id}`, { headers: { secretKey }, body: { lowBalanceThreshold: -1 } })).body,
      ).toEqual({ status: 400, error: 'lowBalanceThreshold must be a number >= 0 and < 1000000000000 with at most 6 decimal places' });
    });
  });

  describe('get-client’s cache', () => {
    it('should keep answering get-client from its cache after a report, and show a PATCH of the balance at once', async () => {
      const { secretKey } = await newClient();
      const id = await addConfig(secretKey, { balance: 10, perSmsCost: 1 });
      const getClient = async () => (await b.post('/api/client/get/secretKey', { headers: { secretKey } })).body.results;
      // B hears other instances' invalidations, so its entries live up to 60 s (not the 800 ms of an instance that cannot).
      const cache = b.app.get(ClientCache);
      for (let waited = 0; !cache.isLive; waited += 50) {
        if (waited > 10_000) throw new Error('instance B did not subscribe to cache invalidations');
        await sleep(50);
      }
      const misses = async () => Number(/^client_cache_misses_total (\d+)/m.exec((await b.get('/metrics')).raw)?.[1]);

      const balanceShown = async () => (await getClient()).smsConfig[0].balance as number;
      expect(await balanceShown()).toBe(10);
      // The add's invalidation reaches B through the broker, maybe after B cached the answer: let it arrive, cache again.
      await sleep(500);
      expect(await balanceShown()).toBe(10);
      const missesBefore = await misses();
      expect((await report(a, { smsConfigId: id, sent: 3, failed: 0 })).body.results.balance).toBe(7);
      // The cached answer stays: sending does not empty the hot path's cache (it shows the report within its 60 s).
      expect(await balanceShown()).toBe(10);
      expect(await misses()).toBe(missesBefore);

      expect((await a.send('PATCH', `/api/v1/sms-configs/${id}`, { headers: { secretKey }, body: { balance: 20 } })).status).toBe(200);
      const start = Date.now();
      while ((await balanceShown()) !== 20) {
        if (Date.now() - start > 1000) throw new Error('a PATCH of balance did not reach get-client within 1 s');
        await sleep(20);
      }
    });
  });
});

/**
 * Client keys a dispatcher relays on route are refused as any other, but they are not the dispatcher's guesses: they
 * never block its address, while a refused dispatcher key still counts as before.
 */
describe.each([
  ['RATE_LIMIT_PER_IP and RATE_LIMIT_FAILED_AUTH_PER_IP of 5', { RATE_LIMIT_PER_IP: '5', RATE_LIMIT_FAILED_AUTH_PER_IP: '5' }, 5],
  ['the default limits', {}, 100],
])('Dispatch: client keys relayed by a dispatcher, with %s', (_label, env: Record<string, string>, addressLimit: number) => {
  const DISPATCHER_ADDRESS = '198.51.100.77';
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(env);
    await approveProviderHosts(t);
  });
  afterAll(() => t.close());

  const fromDispatcher = (url: string, headers: Record<string, string>, body?: unknown) =>
    t.post(url, { headers: { ...DISPATCHER, ...headers }, body, remoteAddress: DISPATCHER_ADDRESS });

  it('should answer 1,000 refused client keys as usual and keep route, outcomes and resolve answering that dispatcher', async () => {
    const secretKey = await t.addClient({ appName: 'relayed-valid' });
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    const smsConfigId = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results[0]
      .smsConfigId as number;
    // An expired previous key: rotated out with a grace of 1 s, then waited out.
    const rotatedOut = await t.addClient({ appName: 'relayed-rotated' });
    const rotated = await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey: rotatedOut }, body: { graceSeconds: 1 } });
    expect(rotated.status).toBe(200);
    await sleep(1100);
    const disabledKey = await t.addClient({ appName: 'relayed-disabled' });
    const disabledId = (await t.get('/api/v1/clients?appName=relayed-disabled', ADMIN)).body.results.items[0].clientId as number;
    expect((await t.send('PATCH', `/api/v1/clients/${disabledId}`, { headers: ADMIN, body: { isActive: false } })).status).toBe(200);

    const refusals: Array<[Record<string, string>, { status: number; error: string }]> = [
      [{ secretKey: `sk_${randomBytes(32).toString('base64url')}` }, { status: 401, error: 'secretKey is not valid' }],
      [{ secretKey: rotatedOut }, { status: 401, error: 'secretKey is not valid' }],
      [{ secretKey: 'not-a-key' }, { status: 401, error: 'secretKey is not valid' }],
      [{}, { status: 401, error: 'secretKey header is required' }],
      [{ secretKey: disabledKey }, { status: 403, error: 'Client is disabled' }],
    ];
    for (let i = 0; i < 1000; i++) {
      const [headers, refusal] = refusals[i % refusals.length];
      const answer = await fromDispatcher('/api/v1/dispatch/route', headers);
      if (answer.status !== refusal.status) throw new Error(`refusal ${i + 1}: ${answer.status} ${answer.raw}`);
      expect(answer.body).toEqual(refusal);
    }

    const routed = await fromDispatcher('/api/v1/dispatch/route', { secretKey });
    expect(routed.status).toBe(200);
    expect(routed.body.results.candidates.map((c: { smsConfigId: number }) => c.smsConfigId)).toEqual([smsConfigId]);
    const reported = await fromDispatcher('/api/v1/dispatch/outcomes', {}, { smsConfigId, sent: 1, failed: 0 });
    expect(reported.status).toBe(200);
    const resolved = await fromDispatcher(
      '/api/v1/sms-configs/resolve',
      {},
      { verifyApiKey: routed.body.results.candidates[0].verifyApiKey },
    );
    expect(resolved.status).toBe(200);
    expect(resolved.body.results.smsConfigId).toBe(smsConfigId);
  });

  it('should still count a refused dispatcher key against its address, and block it past the limit, right key or not', async () => {
    const secretKey = await t.addClient({ appName: 'relayed-blocked' });
    const address = '198.51.100.78';
    const withKey = (apiKey: string) =>
      t.post('/api/v1/dispatch/route', { headers: { 'x-api-key': apiKey, secretKey }, remoteAddress: address });
    for (let i = 0; i < addressLimit; i++)
      expect((await withKey(`dk_guess-${i}`)).body).toEqual({ status: 401, error: 'x-api-key is not valid' });
    const blocked = await withKey('dk_guess-last');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ status: 429, error: 'Too many refused credentials from this address, retry later' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await withKey(DISPATCHER_API_KEY)).status).toBe(429);
  });
});
