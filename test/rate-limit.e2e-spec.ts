import { randomBytes } from 'node:crypto';
import CLIENT from './fixtures/client.json';
import { AddressAllowance } from '../src/rate-limit/address-allowance';
import { CredentialRateLimit } from '../src/rate-limit/credential-rate-limit';
import { ADMIN_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const GET_CLIENT = '/api/client/get/secretKey';
const wrongSecretKey = () => `sk_${randomBytes(32).toString('base64url')}`;
const newClient = CLIENT;

function expectTooManyRequests(answer: { status: number; headers: Record<string, unknown>; body: unknown }): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({ status: 429, error: expect.any(String) });
  expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

describe('Rate limits with the default configuration', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('should meet key guessing from one address with 429 within 100 tries, then refuse that address even with the right key', async () => {
    const validKey = await t.addClient();
    // The valid key's answer is cached, so the fast path ahead of Nest is the one that must refuse the address.
    expect((await t.post(GET_CLIENT, { headers: { secretKey: validKey }, remoteAddress: '198.51.100.9' })).status).toBe(200);
    const guesser = '203.0.113.7';
    let firstRefusal: number | undefined;
    for (let attempt = 1; attempt <= 300 && firstRefusal === undefined; attempt++) {
      // Wrong keys on every credential check: get-client (404), SMS routes and admin routes (401), and malformed ones.
      const answer =
        attempt % 4 === 0
          ? await t.post(GET_CLIENT, { headers: { secretKey: wrongSecretKey() }, remoteAddress: guesser })
          : attempt % 4 === 1
            ? await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: wrongSecretKey() }, remoteAddress: guesser })
            : attempt % 4 === 2
              ? await t.post('/api/client/add', { headers: { 'x-api-key': `guess-${attempt}` }, body: newClient, remoteAddress: guesser })
              : await t.post(GET_CLIENT, { headers: { secretKey: `not-a-key-${attempt}` }, remoteAddress: guesser });
      if (answer.status === 429) {
        expectTooManyRequests(answer);
        firstRefusal = attempt;
      } else {
        expect([401, 404]).toContain(answer.status);
      }
    }
    expect(firstRefusal).toBe(101);

    // Blocked: refused before its credential is looked at, so the right keys do not get through either.
    const blocked = { status: 429, error: 'Too many refused credentials from this address, retry later' };
    expect((await t.post(GET_CLIENT, { headers: { secretKey: wrongSecretKey() }, remoteAddress: guesser })).body).toEqual(blocked);
    const rightClientKey = await t.post(GET_CLIENT, { headers: { secretKey: validKey }, remoteAddress: guesser });
    expectTooManyRequests(rightClientKey);
    expect(rightClientKey.body).toEqual(blocked);
    const rightAdminKey = await t.post('/api/client/add', {
      headers: { 'x-api-key': ADMIN_API_KEY },
      body: newClient,
      remoteAddress: guesser,
    });
    expect(rightAdminKey.body).toEqual(blocked);
    const rightKeyOnList = await t.post('/api/sms-config/get-all-by-client-id', {
      headers: { secretKey: validKey },
      remoteAddress: guesser,
    });
    expect(rightKeyOnList.body).toEqual(blocked);

    // Other addresses are not affected by the guesser, and the key itself is not blocked.
    expect((await t.post(GET_CLIENT, { headers: { secretKey: wrongSecretKey() }, remoteAddress: '198.51.100.1' })).status).toBe(404);
    expect((await t.post(GET_CLIENT, { headers: { secretKey: validKey }, remoteAddress: '198.51.100.2' })).status).toBe(200);
  });

  it('should count IPv6 guessers by their /64, whatever address of it they use', async () => {
    for (let host = 1; host <= 100; host++) {
      const answer = await t.post(GET_CLIENT, {
        headers: { secretKey: wrongSecretKey() },
        remoteAddress: `2001:db8:77:1::${host.toString(16)}`,
      });
      expect(answer.status).toBe(404);
    }
    expectTooManyRequests(await t.post(GET_CLIENT, { headers: { secretKey: wrongSecretKey() }, remoteAddress: '2001:db8:77:1:abcd::1' }));
    expect((await t.post(GET_CLIENT, { headers: { secretKey: wrongSecretKey() }, remoteAddress: '2001:db8:77:2::1' })).status).toBe(404);
  });

  it('should keep no counter for a key that is not valid', async () => {
    const allowance = t.app.get(AddressAllowance);
    const credentials = t.app.get(CredentialRateLimit);
    const before = credentials.trackedCredentials;
    for (let i = 0; i < 50; i++) {
      await t.post(GET_CLIENT, { headers: { secretKey: wrongSecretKey() }, remoteAddress: '192.0.2.200' });
      await t.post('/api/client/add', { headers: { 'x-api-key': `made-up-${i}` }, body: newClient, remoteAddress: '192.0.2.200' });
    }
    expect(credentials.trackedCredentials).toBe(before);
    expect(allowance.blockedFor('192.0.2.200')).toBe(0);
    const key = await t.addClient();
    const afterAdd = credentials.trackedCredentials;
    expect((await t.post(GET_CLIENT, { headers: { secretKey: key } })).status).toBe(200);
    expect(credentials.trackedCredentials).toBe(afterAdd + 1);
  });

  it('should not throttle a busy caller with a valid key', async () => {
    const key = await t.addClient();
    const answers = await Promise.all(Array.from({ length: 500 }, () => t.post(GET_CLIENT, { headers: { secretKey: key } })));
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    expect(answers[0].headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe('Rate limits with small configured values', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_CREDENTIAL: '5', RATE_LIMIT_PER_IP: '3', RATE_LIMIT_WINDOW_MS: '60000' });
  });
  afterAll(() => t.close());

  it('should answer 429 in the envelope with Retry-After once a credential passes its limit, whatever the route', async () => {
    const key = await t.addClient();
    for (let i = 0; i < 3; i++) expect((await t.post(GET_CLIENT, { headers: { secretKey: key } })).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: key } })).status).toBe(200);
    const refused = await t.post(GET_CLIENT, { headers: { secretKey: key } });
    expectTooManyRequests(refused);
    expect(refused.body.error).toBe('Too many requests, retry later');
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);

    // Another credential from the same address has its own allowance.
    const otherKey = await t.addClient();
    expect((await t.post(GET_CLIENT, { headers: { secretKey: otherKey } })).status).toBe(200);
  });

  it('should limit calls without a valid credential per address, right key or not once blocked', async () => {
    const address = '192.0.2.10';
    const key = await t.addClient();
    expect((await t.post(GET_CLIENT, { remoteAddress: address })).status).toBe(401);
    expect((await t.post(GET_CLIENT, { headers: { secretKey: 'malformed' }, remoteAddress: address })).status).toBe(404);
    expect((await t.post(GET_CLIENT, { headers: { secretKey: wrongSecretKey() }, remoteAddress: address })).status).toBe(404);
    expectTooManyRequests(await t.post(GET_CLIENT, { remoteAddress: address }));
    expectTooManyRequests(await t.post(GET_CLIENT, { headers: { secretKey: key }, remoteAddress: address }));
    expect((await t.post(GET_CLIENT, { remoteAddress: '192.0.2.11' })).status).toBe(401);
  });

  it('should never throttle the health check', async () => {
    for (let i = 0; i < 10; i++) expect((await t.get('/health')).status).toBe(200);
  });
});

describe('Rate limit on refused credentials, configured', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_AUTH_PER_IP: '4' });
  });
  afterAll(() => t.close());

  it('should turn refusals past RATE_LIMIT_FAILED_AUTH_PER_IP into 429 with Retry-After', async () => {
    for (let i = 0; i < 4; i++) expect((await t.post(GET_CLIENT, { headers: { secretKey: wrongSecretKey() } })).status).toBe(404);
    const refused = await t.post(GET_CLIENT, { headers: { secretKey: wrongSecretKey() } });
    expectTooManyRequests(refused);
    expect(refused.headers['x-request-id']).toBeDefined();
  });
});

describe('Writes per client (RATE_LIMIT_WRITES_PER_CREDENTIAL)', () => {
  const TOO_MANY_WRITES = { status: 429, error: 'Too many changes for this client, retry later' };
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_WRITES_PER_CREDENTIAL: '4' });
  });
  afterAll(() => t.close());

  const add = (secretKey: string, headers: Record<string, string> = {}) =>
    t.post('/api/sms-config/add', { headers: { secretKey, ...headers }, body: validSmsConfig() });
  const firstConfigId = async (secretKey: string) =>
    (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results[0].smsConfigId as number;
  function expectTooManyWrites(answer: { status: number; headers: Record<string, unknown>; body: unknown }): void {
    expectTooManyRequests(answer);
    expect(answer.body).toEqual(TOO_MANY_WRITES);
    expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(60);
  }

  it('should let one client make 4 changes (add, PATCH, verify-api-key, DELETE), answer the 5th 429, and keep its reads and other clients answering', async () => {
    const secretKey = await t.addClient();
    expect((await add(secretKey)).status).toBe(200);
    const id = await firstConfigId(secretKey);
    expect((await t.send('PATCH', `/api/v1/sms-configs/${id}`, { headers: { secretKey }, body: { balance: 5 } })).status).toBe(200);
    expect((await t.post(`/api/v1/sms-configs/${id}/verify-api-key`, { headers: { secretKey } })).status).toBe(200);
    expect((await t.send('DELETE', `/api/v1/sms-configs/${id}`, { headers: { secretKey } })).status).toBe(200);

    expectTooManyWrites(await add(secretKey));
    expectTooManyWrites(await t.send('PATCH', `/api/v1/sms-configs/${id}`, { headers: { secretKey }, body: { balance: 6 } }));
    expectTooManyWrites(await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey } }));
    // Nothing was added by the refused add.
    expect((await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body).toEqual({ status: 200, results: [] });

    expect((await t.post(GET_CLIENT, { headers: { secretKey } })).status).toBe(200);
    expect((await t.get(`/api/v1/sms-configs/${id}`, { secretKey })).status).toBe(404);
    const otherKey = await t.addClient();
    expect((await add(otherKey)).status).toBe(200);
  });

  it("should count a client's keys together: its previous key within the grace and its new one share one allowance", async () => {
    const oldKey = await t.addClient();
    const rotated = await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey: oldKey }, body: { graceSeconds: 600 } });
    expect(rotated.status).toBe(200);
    const newKey = rotated.body.results.secretKey as string;
    expect((await add(newKey)).status).toBe(200);
    expect((await add(oldKey)).status).toBe(200);
    expect((await add(newKey)).status).toBe(200);
    expectTooManyWrites(await add(oldKey));
    expectTooManyWrites(await add(newKey));
    expect((await t.post(GET_CLIENT, { headers: { secretKey: oldKey } })).status).toBe(200);
  });

  it('should not count a replay of an Idempotency-Key answer as a write, nor refuse it once the client is at its limit', async () => {
    const secretKey = await t.addClient();
    const first = await add(secretKey, { 'idempotency-key': 'add-once' });
    expect(first.status).toBe(200);
    for (let i = 0; i < 10; i++) {
      const replay = await add(secretKey, { 'idempotency-key': 'add-once' });
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.raw).toBe(first.raw);
    }
    for (let i = 0; i < 3; i++) expect((await add(secretKey, { 'idempotency-key': `add-${i}` })).status).toBe(200);
    expectTooManyWrites(await add(secretKey, { 'idempotency-key': 'add-refused' }));
    const replay = await add(secretKey, { 'idempotency-key': 'add-once' });
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    // The refused request gave its key back: nothing was kept for it, and no configuration was added.
    expect((await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results).toHaveLength(4);
    expectTooManyWrites(await add(secretKey, { 'idempotency-key': 'add-refused' }));
  });
});

describe('Writes per client with the default limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('should let one client make 600 changes in a window and answer the 601st 429', async () => {
    const secretKey = await t.addClient();
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    const id = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results[0].smsConfigId as number;
    for (let i = 2; i <= 600; i++) {
      const issued = await t.post(`/api/v1/sms-configs/${id}/verify-api-key`, { headers: { secretKey } });
      if (issued.status !== 200) throw new Error(`write ${i}: ${issued.raw}`);
    }
    const refused = await t.post(`/api/v1/sms-configs/${id}/verify-api-key`, { headers: { secretKey } });
    expectTooManyRequests(refused);
    expect(refused.body).toEqual({ status: 429, error: 'Too many changes for this client, retry later' });
  });
});
