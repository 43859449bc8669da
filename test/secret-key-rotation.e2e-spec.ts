import { ADMIN_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const BAD_GRACE_SECONDS: unknown[] = [-1, 604_801, 1.5, '10', '60', '', true, null, [10], { seconds: 10 }];
const GRACE_SECONDS_REFUSED = { status: 400, error: 'graceSeconds must be an integer from 0 to 604800' };

describe('Secret key rotation', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());
  beforeEach(async () => t.reset());

  const getClient = (secretKey: string) => t.post('/api/client/get/secretKey', { headers: { secretKey } });
  const rotate = (secretKey: string, body?: unknown) => t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey }, body });
  const clientIdOf = async (appName: string) =>
    (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;

  it('should issue a new key at once and keep the previous one working until previousKeyExpiresAt (default one day)', async () => {
    const oldKey = await t.addClient({ appName: 'rotating' });
    expect((await getClient(oldKey)).status).toBe(200); // cached now
    const before = Date.now();
    const answer = await rotate(oldKey);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 200,
      results: { secretKey: expect.stringMatching(/^sk_[A-Za-z0-9_-]{43}$/), previousKeyExpiresAt: expect.stringMatching(ISO_UTC) },
    });
    const { secretKey: newKey, previousKeyExpiresAt } = answer.body.results;
    expect(Date.parse(previousKeyExpiresAt) - before).toBeGreaterThanOrEqual(86_400_000 - 1000);
    expect(Date.parse(previousKeyExpiresAt) - Date.now()).toBeLessThanOrEqual(86_400_000);
    // Each key is echoed as presented; both reach the same client and its configurations.
    expect((await getClient(newKey)).body.results.secretKey).toBe(newKey);
    expect((await getClient(oldKey)).body.results.secretKey).toBe(oldKey);
    expect((await t.post('/api/sms-config/add', { headers: { secretKey: oldKey }, body: validSmsConfig() })).status).toBe(200);
    expect((await getClient(newKey)).body.results.smsConfig).toHaveLength(1);
    expect((await getClient(oldKey)).body.results.smsConfig).toHaveLength(1);
    const stored = await t.get(`/api/v1/clients/${await clientIdOf('rotating')}`, ADMIN);
    expect(stored.body.results.secretKeyRotatedAt).toMatch(ISO_UTC);
    // Stored only as digests.
    const raw = JSON.stringify(await t.dataSource.query('SELECT * FROM client'));
    expect(raw).not.toContain(newKey);
    expect(raw).not.toContain(oldKey);
  });

  it('should make the previous key unknown once its grace period is over', async () => {
    const oldKey = await t.addClient();
    const { secretKey: newKey, previousKeyExpiresAt } = (await rotate(oldKey, { graceSeconds: 1 })).body.results;
    expect((await getClient(oldKey)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(previousKeyExpiresAt) - Date.now() + 20));
    expect((await getClient(oldKey)).body).toEqual({ status: 404, error: 'No client matches the secretKey' });
    expect((await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: oldKey } })).body).toEqual({
      status: 401,
      error: 'secretKey is not valid',
    });
    expect((await getClient(newKey)).status).toBe(200);
  });

  it('should revoke the old key at once with graceSeconds 0, and answer previousKeyExpiresAt null', async () => {
    const oldKey = await t.addClient();
    expect((await getClient(oldKey)).status).toBe(200);
    const answer = await rotate(oldKey, { graceSeconds: 0 });
    expect(answer.body.results.previousKeyExpiresAt).toBeNull();
    expect((await getClient(oldKey)).status).toBe(404);
    expect((await getClient(answer.body.results.secretKey)).status).toBe(200);
  });

  it('should refuse a rotation with the previous key (403), and end the earlier previous key when rotating again', async () => {
    const first = await t.addClient();
    const second = (await rotate(first)).body.results.secretKey;
    expect((await rotate(first)).body).toEqual({ status: 403, error: 'secretKey does not have the scope root' });
    const third = (await rotate(second)).body.results.secretKey;
    expect((await getClient(first)).status).toBe(404);
    expect((await getClient(second)).status).toBe(200);
    expect((await getClient(third)).status).toBe(200);
  });

  it('should refuse graceSeconds outside 0–604800 or not an integer with one message naming the rule, and other fields', async () => {
    const key = await t.addClient();
    for (const graceSeconds of BAD_GRACE_SECONDS) {
      const answer = await rotate(key, { graceSeconds });
      expect({ graceSeconds, body: answer.body }).toEqual({ graceSeconds, body: GRACE_SECONDS_REFUSED });
    }
    expect((await rotate(key, { other: 1 })).body).toEqual({ status: 400, error: 'property other should not exist' });
    expect((await rotate(key, { graceSeconds: 604_800 })).status).toBe(200);
  });

  it('should refuse the same graceSeconds on the admin rotation, with the same message', async () => {
    await t.addClient({ appName: 'admin-grace' });
    const clientId = await clientIdOf('admin-grace');
    for (const graceSeconds of BAD_GRACE_SECONDS) {
      const answer = await t.post(`/api/v1/clients/${clientId}/secret-key/rotate`, { headers: ADMIN, body: { graceSeconds } });
      expect({ graceSeconds, body: answer.body }).toEqual({ graceSeconds, body: GRACE_SECONDS_REFUSED });
    }
  });

  it('should leave one previous key when two rotations with the same key run at once', async () => {
    const key = await t.addClient({ appName: 'concurrent' });
    const answers = await Promise.all([rotate(key), rotate(key), rotate(key)]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 403, 403]);
    const winner = answers.find((answer) => answer.status === 200)!.body.results.secretKey as string;
    const rows = await t.dataSource.query('SELECT previous_secret_key_digest AS previous FROM client');
    expect(rows).toHaveLength(1);
    expect(rows[0].previous).not.toBeNull();
    expect((await getClient(key)).status).toBe(200);
    expect((await getClient(winner)).status).toBe(200);
  });

  it('should let an admin rotate a leaked key, revoking it at once with graceSeconds 0', async () => {
    const leaked = await t.addClient({ appName: 'leaky' });
    expect((await getClient(leaked)).status).toBe(200);
    const clientId = await clientIdOf('leaky');
    const answer = await t.post(`/api/v1/clients/${clientId}/secret-key/rotate`, { headers: ADMIN, body: { graceSeconds: 0 } });
    expect(answer.status).toBe(200);
    expect(answer.body.results.previousKeyExpiresAt).toBeNull();
    expect((await getClient(leaked)).status).toBe(404);
    expect((await getClient(answer.body.results.secretKey)).status).toBe(200);
    expect((await t.post('/api/v1/clients/2147483647/secret-key/rotate', { headers: ADMIN })).body).toEqual({
      status: 404,
      error: 'Client not found',
    });
    const [entry] = (await t.get(`/api/v1/audit-events?clientId=${clientId}&action=client.secret-key.rotated`, ADMIN)).body.results.items;
    expect(entry).toMatchObject({ actor: expect.stringMatching(/^admin:[0-9a-f]{8}$/), clientId, changed: ['secretKey'] });
  });

  it('should record a client rotating its own key as client:<id>, without the key', async () => {
    const key = await t.addClient({ appName: 'self' });
    const rotated = await rotate(key);
    const clientId = await clientIdOf('self');
    const answer = await t.get(`/api/v1/audit-events?clientId=${clientId}&action=client.secret-key.rotated`, ADMIN);
    expect(answer.body.results.items).toEqual([expect.objectContaining({ actor: `client:${clientId}`, changed: ['secretKey'] })]);
    expect(answer.raw).not.toContain(rotated.body.results.secretKey);
    expect(answer.raw).not.toContain(key);
  });
});
