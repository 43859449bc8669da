import { sha256Hex } from '../src/auth/digest';
import { CacheInvalidationBus } from '../src/client-cache/cache-invalidation.bus';
import { ChangeSequenceRepository } from '../src/client-cache/change-sequence.repository';
import { ClientCache } from '../src/client-cache/client-cache';
import { msUntil, sleep } from './helpers/service-process';
import { ADMIN_API_KEY, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const VISIBLE_WITHIN_MS = 1000;

/**
 * What a write drops from get-client's cache, seen on a second instance over the same database: A takes the writes,
 * B answers get-client. One place decides it (ClientCacheInvalidation.changed), from the columns get-client reads.
 */
describe("get-client's cache: what a write drops", () => {
  let a: TestApp;
  let b: TestApp;
  let cacheOfB: ClientCache;

  beforeAll(async () => {
    const env = { DATABASE_URL: await testDatabaseUrl() };
    a = await startTestApp(env);
    b = await startTestApp(env, { keepData: true });
    cacheOfB = b.app.get(ClientCache);
    // While B hears the bus its entries live up to 60 s, not the 800 ms of an instance that cannot: else nothing is shown.
    await waitFor('the instances to subscribe to cache invalidations', () => cacheOfB.isLive && a.app.get(ClientCache).isLive);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(10);
    }
  }

  // Past three times the bound, the caller's expectation fails.
  const msUntilSeen = (check: () => Promise<boolean>) => msUntil(check, 3 * VISIBLE_WITHIN_MS);

  const getClientOnB = async (secretKey: string) => (await b.post('/api/client/get/secretKey', { headers: { secretKey } })).body.results;
  const heldByB = (secretKey: string) => cacheOfB.lookup(sha256Hex(secretKey))?.found === true;

  /** A new client, with a configuration if asked: its key and ids. */
  async function newClient(withSmsConfig: boolean): Promise<{ secretKey: string; clientId: number; smsConfigId?: number }> {
    const appName = `dropped-${Math.random().toString(36).slice(2)}`;
    const secretKey = await a.addClient({ appName });
    const clientId = (await a.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    if (!withSmsConfig) return { secretKey, clientId };
    expect((await a.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    const [{ smsConfigId }] = (await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
    return { secretKey, clientId, smsConfigId: smsConfigId as number };
  }

  /** A change get-client shows (a new client's appUrl, which B holds) made through A: ms until B shows it. */
  async function msUntilAnAppUrlShownOnB(): Promise<number> {
    // No configuration: nothing but this change drops its entry, so B shows it only once the change's line arrived.
    const { secretKey, clientId } = await newClient(false);
    await getClientOnB(secretKey);
    expect(heldByB(secretKey)).toBe(true);
    const appUrl = `https://${Math.random().toString(36).slice(2)}.example.com`;
    expect((await a.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { appUrl } })).status).toBe(200);
    return msUntilSeen(async () => (await getClientOnB(secretKey)).appUrl === appUrl);
  }

  /** Until B has applied every change committed before: a later one shown (lines and messages keep their order), and the sequence read through. */
  async function caughtUpOnB(): Promise<void> {
    expect(await msUntilAnAppUrlShownOnB()).toBeLessThan(VISIBLE_WITHIN_MS);
    const repository = b.app.get(ChangeSequenceRepository);
    const read = repository.readFrom.bind(repository);
    let reads = 0;
    const counted = jest.spyOn(repository, 'readFrom').mockImplementation(async (...args) => {
      const rows = await read(...args);
      reads++;
      return rows;
    });
    // The first read counted started after this moment; the second starts once the first applied what it found.
    await waitFor('B to read the change sequence through', () => reads >= 2).finally(() => counted.mockRestore());
  }

  it('should drop within 1 s on another instance the answer a change of a field get-client shows makes stale', async () => {
    expect(await msUntilAnAppUrlShownOnB()).toBeLessThan(VISIBLE_WITHIN_MS);
    const { secretKey, smsConfigId } = await newClient(true);
    await caughtUpOnB();
    expect((await getClientOnB(secretKey)).smsConfig[0].providerName).toBe('twilio');
    const patched = await a.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, {
      headers: { secretKey },
      body: { providerName: 'vonage' },
    });
    expect(patched.status).toBe(200);
    expect(await msUntilSeen(async () => (await getClientOnB(secretKey)).smsConfig[0].providerName === 'vonage')).toBeLessThan(
      VISIBLE_WITHIN_MS,
    );
  });

  it('should write no line, publish nothing and leave the answer cached for a change of fields neither get-client nor the guards read', async () => {
    const { secretKey, clientId, smsConfigId } = await newClient(true);
    // The configuration's add dropped the answer everywhere: B holds it again once that drop has come.
    await caughtUpOnB();
    await getClientOnB(secretKey);
    expect(heldByB(secretKey)).toBe(true);
    const highest = Number((await a.dataSource.query('SELECT MAX(id) AS id FROM change_sequence'))[0].id ?? 0);
    const published = jest.spyOn(a.app.get(CacheInvalidationBus), 'publish');

    try {
      const unread = {
        appName: `renamed-${clientId}`,
        dailySmsLimit: 500,
        dailySpendLimit: 20,
        pumpingGuard: 'block',
        allowPremiumNumbers: true,
      };
      expect((await a.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: unread })).status).toBe(200);
      const prices = { lowBalanceThreshold: 5, destinationPrices: [{ prefix: '44', perSmsCost: 0.04 }] };
      expect((await a.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, { headers: { secretKey }, body: prices })).status).toBe(200);
      expect(await a.dataSource.query('SELECT line FROM change_sequence WHERE id > ?', [highest])).toEqual([]);
      expect(published).not.toHaveBeenCalled();
    } finally {
      published.mockRestore();
    }

    await caughtUpOnB();
    expect(heldByB(secretKey)).toBe(true);
  });
});
