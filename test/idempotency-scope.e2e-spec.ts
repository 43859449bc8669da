import { sha256Hex } from '../src/auth/digest';
import { IdempotencySweeper } from '../src/idempotency/idempotency-sweeper';
import { IdempotencyService } from '../src/idempotency/idempotency.service';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const ADMIN_ACTOR = `admin:${sha256Hex(ADMIN_API_KEY).slice(0, 8)}`;
const DISPATCHER_ACTOR = `dispatcher:${sha256Hex(DISPATCHER_API_KEY).slice(0, 8)}`;
/** The scopes the previous release wrote: the key's whole SHA-256. */
const LEGACY_ADMIN_SCOPE = `admin:${sha256Hex(ADMIN_API_KEY)}`;
const LEGACY_DISPATCHER_SCOPE = `dispatcher:${sha256Hex(DISPATCHER_API_KEY)}`;
const NEW_CLIENT = { appName: 'Scoped', appUrl: 'https://s.example.com', isHost: false };

describe('Idempotency-Key scopes of admin and dispatcher keys', () => {
  let t: TestApp;
  let secretKey: string;
  let smsConfigId: number;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    secretKey = await t.addClient();
    expect(
      (await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig({ balance: 100, perSmsCost: 1 }) })).status,
    ).toBe(200);
    [{ id: smsConfigId }] = await t.dataSource.query('SELECT id FROM sms_config');
  });

  const scopes = async () =>
    (await t.dataSource.query('SELECT scope FROM idempotent_request ORDER BY scope')).map(
      (row: { scope: string }) => row.scope,
    ) as string[];
  const count = async (table: string) => Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
  const balance = async () => (await t.get(`/api/v1/sms-configs/${smsConfigId}`, { secretKey })).body.results.balance as number;

  /** A kept answer written as the previous release wrote it: the same service, under the old scope. */
  async function keepUnderLegacyScope(scope: string, key: string, method: string, url: string, body: string, answer: string) {
    const idempotency = t.app.get(IdempotencyService);
    const start = await idempotency.start(scope, key, `${method} ${url}\n${body}`);
    if (start.kind !== 'claimed') throw new Error('not claimed');
    await idempotency.finish(scope, key, start.claim, 200, answer);
  }

  it('should store the admin scope as the actor name (admin:<8 hex>), never a digest of the key', async () => {
    const first = await t.post('/api/client/add', { headers: { ...ADMIN, 'idempotency-key': 'scoped-1' }, body: NEW_CLIENT });
    expect(first.status).toBe(200);
    expect(await scopes()).toEqual([ADMIN_ACTOR]);
    expect(ADMIN_ACTOR).toMatch(/^admin:[0-9a-f]{8}$/);
    const retry = await t.post('/api/client/add', { headers: { ...ADMIN, 'idempotency-key': 'scoped-1' }, body: NEW_CLIENT });
    expect(retry.raw).toBe(first.raw);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const stored = JSON.stringify(await t.dataSource.query('SELECT * FROM idempotent_request'));
    expect(stored).not.toContain(sha256Hex(ADMIN_API_KEY));
  });

  it('should store the scope of outcome reports as the dispatcher actor name (dispatcher:<8 hex>)', async () => {
    const body = { smsConfigId, sent: 2, failed: 0 };
    const first = await t.post('/api/v1/dispatch/outcomes', { headers: { ...DISPATCHER, 'idempotency-key': 'report-1' }, body });
    expect(first.status).toBe(200);
    expect(await scopes()).toEqual([DISPATCHER_ACTOR]);
    expect((await t.post('/api/v1/dispatch/outcomes', { headers: { ...DISPATCHER, 'idempotency-key': 'report-1' }, body })).raw).toBe(
      first.raw,
    );
    expect(await balance()).toBe(98);
  });

  it('should answer a retry from a report kept under the old scope, run nothing, and write no row under the new one', async () => {
    const body = JSON.stringify({ smsConfigId, sent: 3, failed: 0 });
    const kept = `{"status":200,"results":{"smsConfigId":${smsConfigId},"balance":97,"healthy":true,"unhealthyUntil":null}}`;
    await keepUnderLegacyScope(LEGACY_DISPATCHER_SCOPE, 'old-report', 'POST', '/api/v1/dispatch/outcomes', body, kept);
    const headers = { ...DISPATCHER, 'idempotency-key': 'old-report', 'content-type': 'application/json' };
    const retry = await t.post('/api/v1/dispatch/outcomes', { headers, payload: body });
    expect(retry.status).toBe(200);
    expect(retry.raw).toBe(kept);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await balance()).toBe(100);
    expect(await scopes()).toEqual([LEGACY_DISPATCHER_SCOPE]);
    // The same key with another request is refused as before.
    const other = await t.post('/api/v1/dispatch/outcomes', { headers, payload: JSON.stringify({ smsConfigId, sent: 4, failed: 0 }) });
    expect(other.body).toEqual({ status: 422, error: 'Idempotency-Key was used with a different request' });
  });

  it('should answer a retry of add client kept under the old admin scope, making no second client', async () => {
    const first = await t.post('/api/client/add', { headers: ADMIN, body: NEW_CLIENT });
    expect(first.status).toBe(200);
    await keepUnderLegacyScope(LEGACY_ADMIN_SCOPE, 'old-add', 'POST', '/api/client/add', JSON.stringify(NEW_CLIENT), first.raw);
    const clients = await count('client');
    const retry = await t.post('/api/client/add', { headers: { ...ADMIN, 'idempotency-key': 'old-add' }, body: NEW_CLIENT });
    expect(retry.status).toBe(200);
    expect(retry.raw).toBe(first.raw);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await count('client')).toBe(clients);
    expect(await scopes()).toEqual([LEGACY_ADMIN_SCOPE]);
  });

  it('should run the request again under the new scope once the old row has expired, and the sweeper delete it', async () => {
    const body = JSON.stringify({ smsConfigId, sent: 5, failed: 0 });
    await keepUnderLegacyScope(LEGACY_DISPATCHER_SCOPE, 'expired', 'POST', '/api/v1/dispatch/outcomes', body, '{"status":200}');
    await t.dataSource.query("UPDATE idempotent_request SET expires_at = '2000-01-01 00:00:00.000'");
    const headers = { ...DISPATCHER, 'idempotency-key': 'expired', 'content-type': 'application/json' };
    const answer = await t.post('/api/v1/dispatch/outcomes', { headers, payload: body });
    expect(answer.status).toBe(200);
    expect(answer.headers['idempotent-replayed']).toBeUndefined();
    expect(await balance()).toBe(95);
    // The actor name is the old scope's first characters: it sorts first.
    expect(await scopes()).toEqual([DISPATCHER_ACTOR, LEGACY_DISPATCHER_SCOPE]);
    await t.app.get(IdempotencySweeper).sweep();
    expect(await scopes()).toEqual([DISPATCHER_ACTOR]);
  });
});
