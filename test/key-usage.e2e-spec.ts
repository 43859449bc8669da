import { sha256Hex } from '../src/auth/digest';
import { KeyUsageFlusher } from '../src/key-usage/key-usage-flusher';
import { KeyUse } from '../src/key-usage/key-usage-notes';
import { KeyUsageRepository } from '../src/key-usage/key-usage.repository';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, testDatabaseUrl } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const FLUSH_MS = 1000;
/** What §-key-usage promises: the view on any instance within one flush interval, plus 1 s. */
const WITHIN_MS = FLUSH_MS + 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Who still uses which key: instance A serves the client's calls, instance B (same database) answers the admin. Both
 * write what they noted every second.
 */
describe('Key usage', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const databaseUrl = await testDatabaseUrl();
    a = await startTestApp({ DATABASE_URL: databaseUrl, KEY_USAGE_FLUSH_MS: String(FLUSH_MS) });
    b = await startTestApp({ DATABASE_URL: databaseUrl, KEY_USAGE_FLUSH_MS: String(FLUSH_MS) }, { keepData: true });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });
  beforeEach(async () => {
    // What the last test noted is written by now, or dropped with its client.
    await a.app.get(KeyUsageFlusher).flush();
    await b.app.get(KeyUsageFlusher).flush();
    await a.reset();
  });

  async function newClient() {
    const appName = `usage-${Math.random().toString(36).slice(2)}`;
    const secretKey = await a.addClient({ appName });
    const clientId = (await b.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    return { secretKey, clientId, appName };
  }
  const viewOnB = async (clientId: number) => (await b.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results;
  const getClientThroughA = (secretKey: string) => a.post('/api/client/get/secretKey', { headers: { secretKey } });

  /** ms until the admin view on B satisfies `condition`; fails past three times the promise. */
  async function msUntilViewOnB(clientId: number, condition: (view: Record<string, unknown>) => boolean): Promise<number> {
    const start = Date.now();
    while (!condition(await viewOnB(clientId))) {
      if (Date.now() - start > 3 * WITHIN_MS) throw new Error(`the view on B did not change within ${Date.now() - start} ms`);
      await sleep(20);
    }
    return Date.now() - start;
  }

  it('should show a key used through A, and where from, on B’s admin view within the flush interval plus 1 s, with no use before', async () => {
    const { secretKey, clientId } = await newClient();
    expect(await viewOnB(clientId)).toMatchObject({
      secretKeyLastUsedAt: null,
      secretKeyLastUsedFrom: null,
      previousSecretKeyLastUsedAt: null,
      previousSecretKeyLastUsedFrom: null,
      previousKeyExpiresAt: null,
    });
    const usedAt = Date.now();
    expect((await a.post('/api/client/get/secretKey', { headers: { secretKey }, remoteAddress: '::ffff:198.51.100.41' })).status).toBe(200);
    const ms = await msUntilViewOnB(clientId, (view) => view.secretKeyLastUsedAt !== null);
    expect(ms).toBeLessThanOrEqual(WITHIN_MS);
    const view = await viewOnB(clientId);
    expect(view.secretKeyLastUsedFrom).toBe('198.51.100.41');
    const lastUsedAt = Date.parse(view.secretKeyLastUsedAt as string);
    expect(lastUsedAt).toBeGreaterThanOrEqual(usedAt - 5);
    expect(lastUsedAt).toBeLessThanOrEqual(Date.now());
  });

  it('should count get-client answered from the cache, and every other route the key opens', async () => {
    const { secretKey, clientId } = await newClient();
    expect((await getClientThroughA(secretKey)).status).toBe(200); // a miss: it fills A's cache
    await msUntilViewOnB(clientId, (view) => view.secretKeyLastUsedAt !== null);
    const first = Date.parse((await viewOnB(clientId)).secretKeyLastUsedAt as string);

    await sleep(50);
    const hitAt = Date.now();
    expect((await getClientThroughA(secretKey)).status).toBe(200); // a hit
    await msUntilViewOnB(clientId, (view) => Date.parse(view.secretKeyLastUsedAt as string) > first);
    expect(Date.parse((await viewOnB(clientId)).secretKeyLastUsedAt as string)).toBeGreaterThanOrEqual(hitAt - 5);

    const listed = Date.parse((await viewOnB(clientId)).secretKeyLastUsedAt as string);
    await sleep(50);
    expect((await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).status).toBe(200);
    await msUntilViewOnB(clientId, (view) => Date.parse(view.secretKeyLastUsedAt as string) > listed);
  });

  it("should move the time but keep the last direct address on a route call, whose address is the dispatcher's", async () => {
    const { secretKey, clientId } = await newClient();
    const route = () =>
      a.post('/api/v1/dispatch/route', { headers: { 'x-api-key': DISPATCHER_API_KEY, secretKey }, remoteAddress: '192.0.2.99' });
    expect((await a.post('/api/client/get/secretKey', { headers: { secretKey }, remoteAddress: '198.51.100.42' })).status).toBe(200);
    await a.app.get(KeyUsageFlusher).flush();
    const direct = await viewOnB(clientId);
    expect(direct.secretKeyLastUsedFrom).toBe('198.51.100.42');

    await sleep(20);
    expect((await route()).status).toBe(200);
    await a.app.get(KeyUsageFlusher).flush();
    const relayed = await viewOnB(clientId);
    expect(Date.parse(relayed.secretKeyLastUsedAt as string)).toBeGreaterThan(Date.parse(direct.secretKeyLastUsedAt as string));
    expect(relayed.secretKeyLastUsedFrom).toBe('198.51.100.42');

    // Within one flush interval: the direct use's address, whichever came last.
    await sleep(20);
    expect((await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey }, remoteAddress: '198.51.100.43' })).status).toBe(
      200,
    );
    expect((await route()).status).toBe(200);
    await a.app.get(KeyUsageFlusher).flush();
    const both = await viewOnB(clientId);
    expect(Date.parse(both.secretKeyLastUsedAt as string)).toBeGreaterThan(Date.parse(relayed.secretKeyLastUsedAt as string));
    expect(both.secretKeyLastUsedFrom).toBe('198.51.100.43');
  });

  it('should note nothing for a key that was refused', async () => {
    const { secretKey, clientId } = await newClient();
    await a.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: false } });
    expect((await getClientThroughA(secretKey)).status).toBe(403);
    await a.app.get(KeyUsageFlusher).flush();
    expect((await viewOnB(clientId)).secretKeyLastUsedAt).toBeNull();
  });

  it('should move the last use to the previous key on rotation, show the old key used in its grace, and list it as in use until two intervals without', async () => {
    const { secretKey: oldKey, clientId, appName } = await newClient();
    await getClientThroughA(oldKey);
    await a.app.get(KeyUsageFlusher).flush();
    const usedBefore = (await viewOnB(clientId)).secretKeyLastUsedAt as string;
    expect(usedBefore).not.toBeNull();

    const rotated = await a.post('/api/v1/client/secret-key/rotate', { headers: { secretKey: oldKey }, body: { graceSeconds: 3600 } });
    const newKey = rotated.body.results.secretKey as string;
    const afterRotation = await viewOnB(clientId);
    expect(afterRotation).toMatchObject({ secretKeyLastUsedAt: null, previousKeyExpiresAt: rotated.body.results.previousKeyExpiresAt });
    // The old key's last use moved with it (or is later: the rotation itself used it, and a flush may have run since).
    expect(Date.parse(afterRotation.previousSecretKeyLastUsedAt as string)).toBeGreaterThanOrEqual(Date.parse(usedBefore));

    const inUse = async () =>
      (
        (await b.get(`/api/v1/clients?appName=${appName}&previousKeyInUse=true`, ADMIN)).body.results.items as Array<{ clientId: number }>
      ).map((item) => item.clientId);
    const notInUse = async () =>
      (
        (await b.get(`/api/v1/clients?appName=${appName}&previousKeyInUse=false`, ADMIN)).body.results.items as Array<{ clientId: number }>
      ).map((item) => item.clientId);
    // The old key, still used by a caller not moved yet, during its grace.
    await sleep(20);
    expect((await getClientThroughA(oldKey)).status).toBe(200);
    expect((await getClientThroughA(newKey)).status).toBe(200);
    await msUntilViewOnB(
      clientId,
      (view) => view.secretKeyLastUsedAt !== null && Date.parse(view.previousSecretKeyLastUsedAt as string) > Date.parse(usedBefore),
    );
    expect(await inUse()).toEqual([clientId]);
    expect(await notInUse()).toEqual([]);

    // Not used any more: after two intervals it no longer counts as in use.
    const lastOldUse = Date.parse((await viewOnB(clientId)).previousSecretKeyLastUsedAt as string);
    await sleep(Math.max(0, lastOldUse + 2 * FLUSH_MS - Date.now()) + 100);
    expect(await inUse()).toEqual([]);
    expect(await notInUse()).toEqual([clientId]);
    expect((await b.get('/api/v1/clients?previousKeyInUse=yes', ADMIN)).body).toEqual({
      status: 400,
      error: 'previousKeyInUse must be true or false',
    });
  });

  it('should never let an older time, nor its address, replace a newer one, whichever instance writes last', async () => {
    const { secretKey, clientId } = await newClient();
    const digest = sha256Hex(secretKey);
    const older = Date.parse('2026-11-20T10:00:00.000Z');
    const newer = Date.parse('2026-11-20T10:00:05.000Z');
    await a.app.get(KeyUsageRepository).recordLastUses(new Map([[digest, { shape: 'root', usedAt: newer, ip: '203.0.113.5' }]]));
    await b.app.get(KeyUsageRepository).recordLastUses(new Map([[digest, { shape: 'root', usedAt: older, ip: '203.0.113.1' }]]));
    expect(await viewOnB(clientId)).toMatchObject({
      secretKeyLastUsedAt: '2026-11-20T10:00:05.000Z',
      secretKeyLastUsedFrom: '203.0.113.5',
    });
    // Interleaved, many at once: the address is the latest use's.
    const writes = Array.from({ length: 20 }, (_, index) => {
      const at = newer + 1000 * (index % 2 === 0 ? index : -index);
      const use: KeyUse = { shape: 'root', usedAt: at, ip: `198.51.100.${index}` };
      return (index % 2 === 0 ? a : b).app.get(KeyUsageRepository).recordLastUses(new Map([[digest, use]]));
    });
    await Promise.all(writes);
    expect(await viewOnB(clientId)).toMatchObject({
      secretKeyLastUsedAt: new Date(newer + 18_000).toISOString(),
      secretKeyLastUsedFrom: '198.51.100.18',
    });
  });

  it('should write many keys in one flush, each where it belongs', async () => {
    const clients = await Promise.all(Array.from({ length: 5 }, () => newClient()));
    const scopedKeys = await Promise.all(
      clients.map(async ({ clientId }) => {
        const made = await b.post(`/api/v1/clients/${clientId}/keys`, {
          headers: ADMIN,
          body: { name: 'sender', scopes: ['client:read'] },
        });
        return made.body.results.secretKey as string;
      }),
    );
    const at = Date.parse('2026-11-21T08:00:00.000Z');
    // Keys no client has are written nowhere; the clients' keys sit first and last in statements of 400 (SQLite) and
    // of 1,000 (MySQL), and in the last one, root and scoped keys mixed, each written to its own table.
    const entries: Array<[string, KeyUse]> = Array.from({ length: 2100 }, (_, index) => [
      sha256Hex(`sk_nobody_${index}`),
      { shape: index % 2 === 0 ? 'root' : 'scoped', usedAt: at, ip: '192.0.2.1' },
    ]);
    for (const [index, position] of [0, 399, 400, 999, 2104].entries()) {
      entries.splice(position, 0, [
        sha256Hex(clients[index].secretKey),
        { shape: 'root', usedAt: at + index, ip: `2001:db8::${index + 1}` },
      ]);
      entries.splice(position + 1, 0, [
        sha256Hex(scopedKeys[index]),
        { shape: 'scoped', usedAt: at - index, ip: `198.51.100.${index + 1}` },
      ]);
    }
    await a.app.get(KeyUsageRepository).recordLastUses(new Map(entries));
    for (const [index, { clientId }] of clients.entries()) {
      expect(await viewOnB(clientId)).toMatchObject({
        secretKeyLastUsedAt: new Date(at + index).toISOString(),
        secretKeyLastUsedFrom: `2001:db8::${index + 1}`,
      });
      const [key] = (await b.get(`/api/v1/clients/${clientId}/keys`, ADMIN)).body.results.items;
      expect(key).toMatchObject({ lastUsedAt: new Date(at - index).toISOString(), lastUsedFrom: `198.51.100.${index + 1}` });
    }
  });

  it('should expose the pending notes and the flushes as metrics', async () => {
    const metrics = (await b.get('/metrics')).raw;
    expect(metrics).toMatch(/^key_usage_pending_notes \d+$/m);
    expect(metrics).toMatch(/^key_usage_flush_duration_seconds_count \d+$/m);
    expect(metrics).toMatch(/^key_usage_flush_failures_total \d+$/m);
  });
});
