import { sha256Hex } from '../src/auth/digest';
import { generateSecretKey } from '../src/auth/secret-key';
import { ChangeSequence } from '../src/client-cache/change-sequence';
import { ChangeSequencePruner } from '../src/client-cache/change-sequence-pruner';
import { ClientCache } from '../src/client-cache/client-cache';
import { clientCacheHits } from '../src/client-cache/client-cache.metrics';
import { TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

/** CLIENT_CACHE_MB=1: about a thousand of these small answers. */
const CACHE_BUDGET_BYTES = 1024 * 1024;

async function foundHits(): Promise<number> {
  return (await clientCacheHits.get()).values.find((value) => value.labels.kind === 'found')?.value ?? 0;
}

function withoutPerRequestHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const { 'x-request-id': _id, date: _date, ...rest } = headers;
  return rest;
}

describe('get-client cache', () => {
  let t: TestApp;
  let cache: ClientCache;
  const getClient = (secretKey: string) => t.post('/api/client/get/secretKey', { headers: { secretKey } });

  beforeAll(async () => {
    t = await startTestApp({ CLIENT_CACHE_MB: '1' });
    cache = t.app.get(ClientCache);
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  // First: the tests below refuse enough keys to have this address blocked for a while.
  describe('the change sequence', () => {
    const OTHER_INSTANCE = 'f'.repeat(16);
    const lines = async () =>
      (await t.dataSource.query<Array<{ line: string; origin: string }>>('SELECT line, origin FROM change_sequence ORDER BY id')).map(
        ({ line, origin }) => ({ line, origin }),
      );
    const writeLine = (line: string, createdAt: Date) =>
      t.dataSource.query('INSERT INTO change_sequence (line, origin, created_at) VALUES (?, ?, ?)', [
        line,
        OTHER_INSTANCE,
        createdAt.toISOString().replace('T', ' ').replace('Z', ''),
      ]);

    beforeEach(() => t.dataSource.query('DELETE FROM change_sequence'));

    it("should write a change's lines with the change, under this process's origin", async () => {
      const key = await t.addClient();
      expect((await t.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })).status).toBe(200);
      expect(await lines()).toEqual([{ line: sha256Hex(key), origin: t.app.get(ChangeSequence).origin }]);
    });

    it("should drop within 1 s what another instance's line names, with no message on the bus", async () => {
      const start = Date.now();
      while (!cache.isLive && Date.now() - start < 10_000) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(cache.isLive).toBe(true); // else entries would live 800 ms, and the test would prove nothing
      const key = await t.addClient();
      expect((await getClient(key)).status).toBe(200);
      expect(cache.lookupOwner(sha256Hex(key))).toBeDefined();

      await writeLine(`key:${sha256Hex(key)}`, new Date());
      const written = Date.now();
      while (cache.lookupOwner(sha256Hex(key)) !== undefined && Date.now() - written < 3000) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(cache.lookupOwner(sha256Hex(key))).toBeUndefined();
      expect(Date.now() - written).toBeLessThan(1000);
    });

    it('should prune the lines older than an hour, and only those', async () => {
      await writeLine('a'.repeat(64), new Date(Date.now() - 61 * 60_000));
      await writeLine('b'.repeat(64), new Date(Date.now() - 59 * 60_000));
      expect(await t.app.get(ChangeSequencePruner).prune()).toBe(1);
      expect(await lines()).toEqual([{ line: 'b'.repeat(64), origin: OTHER_INSTANCE }]);
    });
  });

  it('should never answer one key with the data of another', async () => {
    const keys = await Promise.all(
      Array.from({ length: 5 }, (_, i) => t.addClient({ appName: `app-${i}`, appUrl: `https://app-${i}.example.com` })),
    );
    await t.post('/api/sms-config/add', { headers: { secretKey: keys[0] }, body: validSmsConfig({ providerName: 'only-0' }) });
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(keys.map((key) => getClient(key)));
      answers.forEach((answer, i) => {
        expect(answer.status).toBe(200);
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        expect(answer.body.results.secretKey).toBe(keys[i]);
        expect(answer.body.results.appUrl).toBe(`https://app-${i}.example.com`);
        expect(answer.body.results.smsConfig).toEqual(i === 0 ? [expect.objectContaining({ providerName: 'only-0' })] : null);
      });
    }
    // A key one character away from a cached one is another key: unknown.
    const near = keys[0].slice(0, -1) + (keys[0].endsWith('A') ? 'B' : 'A');
    expect((await getClient(near)).status).toBe(404);
  });

  it('should answer from the cache exactly as from the database: status, body and headers', async () => {
    const key = await t.addClient();
    await t.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() });
    const fromDatabase = await getClient(key);
    // The add's invalidation also comes back to this instance through the broker, and may drop the entry once more.
    while (cache.lookup(sha256Hex(key)) === undefined) await getClient(key);
    const hitsBefore = await foundHits();
    const fromCache = await t.post('/api/client/get/secretKey', { headers: { secretKey: key, 'x-request-id': 'cached-answer-1' } });
    expect(await foundHits()).toBe(hitsBefore + 1);
    expect(fromCache.status).toBe(200);
    expect(fromCache.raw).toBe(fromDatabase.raw);
    expect(fromCache.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(fromCache.headers['x-request-id']).not.toBe(fromDatabase.headers['x-request-id']);
    expect(withoutPerRequestHeaders(fromCache.headers)).toEqual(withoutPerRequestHeaders(fromDatabase.headers));
  });

  it('should still judge the body when the answer is cached: {} is taken, fields are refused', async () => {
    const key = await t.addClient();
    expect((await getClient(key)).status).toBe(200);
    expect((await t.post('/api/client/get/secretKey', { headers: { secretKey: key }, body: {} })).status).toBe(200);
    const withField = await t.post('/api/client/get/secretKey', { headers: { secretKey: key }, body: { secretKey: key } });
    expect(withField.body).toEqual({ status: 400, error: 'property secretKey should not exist' });
  });

  it('should answer a new SMS configuration at once through the instance that added it', async () => {
    const key = await t.addClient();
    expect((await getClient(key)).body.results.smsConfig).toBeNull();
    expect((await t.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })).status).toBe(200);
    expect((await getClient(key)).body.results.smsConfig).toHaveLength(1);
  });

  it('should stay within its byte budget when 10,000 distinct keys are looked up', async () => {
    const keys = Array.from({ length: 10_000 }, () => generateSecretKey());
    for (let i = 0; i < keys.length; i += 500) {
      const batch = keys.slice(i, i + 500);
      await t.dataSource.query(
        `INSERT INTO client (app_name, app_url, secret_key_digest, is_host) VALUES ${batch.map(() => '(?, ?, ?, ?)').join(', ')}`,
        batch.flatMap((key, j) => [`bulk-${i + j}`, `https://bulk-${i + j}.example.com`, sha256Hex(key), 0]),
      );
    }
    for (let i = 0; i < keys.length; i += 50) {
      const answers = await Promise.all(keys.slice(i, i + 50).map((key) => getClient(key)));
      answers.forEach((answer, j) => {
        expect(answer.status).toBe(200);
        expect(answer.body.results.appUrl).toBe(`https://bulk-${i + j}.example.com`);
      });
      expect(cache.bytes).toBeLessThanOrEqual(CACHE_BUDGET_BYTES);
    }
    expect(cache.bytes).toBeGreaterThan(CACHE_BUDGET_BYTES * 0.9);
    // Keys asked for again are answered from memory again: the cache still admits what is in use.
    const again = keys.slice(-20);
    for (let round = 0; round < 5; round++) await Promise.all(again.map((key) => getClient(key)));
    expect(again.filter((key) => cache.lookup(sha256Hex(key)) === undefined)).toEqual([]);

    // Unknown keys are held within the same budget.
    for (let i = 0; i < 2000; i += 50) {
      await Promise.all(Array.from({ length: 50 }, () => getClient(generateSecretKey())));
      expect(cache.bytes).toBeLessThanOrEqual(CACHE_BUDGET_BYTES);
    }
  }, 120_000);
});
