import { approveProviderHosts } from './helpers/provider-hosts';
import { SecretSealer } from '../src/crypto/secret-sealer';
import { parseEncryptionKeys } from '../src/config/encryption-keys';
import { Resealer } from '../src/reseal/resealer';
import { SealedColumnRepository, resealStatements } from '../src/reseal/sealed-column.repository';
import { SEALED_COLUMNS } from '../src/reseal/sealed-columns';
import {
  ADMIN_API_KEY,
  DISPATCHER_API_KEY,
  KEY_A,
  KEY_B,
  TestApp,
  startTestApp,
  testDatabaseUrl,
  validSmsConfig,
} from './helpers/test-app';

const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };

/**
 * Retiring an encryption key, as the runbook does it: the new key put first, reseal run, the old key removed; every
 * configuration still resolves, kept idempotent answers still replay, and only tokens sealed under the removed key fail.
 */
describe('Retiring an encryption key', () => {
  let t: TestApp | undefined;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await testDatabaseUrl();
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const startWith = async (encryptionKeys: string, keepData = true) => {
    t = await startTestApp({ DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: encryptionKeys }, { keepData });
    await approveProviderHosts(t);
    return t;
  };
  const resolve = (app: TestApp, verifyApiKey: string) =>
    app.post('/api/v1/sms-configs/resolve', { headers: DISPATCHER, body: { verifyApiKey } });

  it('should resolve every configuration after reseal and the old key removed; tokens under the old key answer 400, fresh ones resolve', async () => {
    // Under key B alone: a client, a configuration, its token, and a kept idempotent answer.
    let app = await startWith(KEY_B, false);
    const secretKey = await app.addClient();
    const added = await app.post('/api/sms-config/add', {
      headers: { secretKey, 'idempotency-key': 'kept-under-b' },
      body: validSmsConfig(),
    });
    const oldToken = added.body.results.verifyApiKey as string;
    const [{ smsConfigId }] = (await app.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
    await app.close();

    // A put first: old tokens still resolve, and a fresh token is issued under A without touching what is stored.
    app = await startWith(`${KEY_A},${KEY_B}`);
    expect((await resolve(app, oldToken)).status).toBe(200);
    const fresh = await app.post(`/api/v1/sms-configs/${smsConfigId}/verify-api-key`, { headers: { secretKey } });
    const freshToken = fresh.body.results.verifyApiKey as string;
    expect(new SecretSealer(parseEncryptionKeys(KEY_A)).openVerifyApiKey(freshToken).keyId).toBe('keyA');
    const [stored] = await app.dataSource.query('SELECT password_sealed AS p FROM sms_config');
    expect(stored.p).toMatch(/^keyB:/);

    // Reseal, while the instance serves.
    const lines: string[] = [];
    const sql = resealStatements(app.dataSource);
    const outcome = await new Resealer(
      SEALED_COLUMNS.map((column) => new SealedColumnRepository(sql, column)),
      new SecretSealer(parseEncryptionKeys(`${KEY_A},${KEY_B}`)),
      ['keyA', 'keyB'],
      (line) => lines.push(line),
    ).run();
    expect(outcome).toMatchObject({ failed: 0, remaining: [{ keyId: 'keyB', count: 0 }], stopped: false });
    // The password, the apiKey, and the kept request: its answer and its sealed SHA-256.
    expect(outcome.moved).toBe(4);
    expect(lines.at(-1)).toBe('reseal: moved 4; remaining keyB=0');
    await app.close();

    // B removed.
    app = await startWith(KEY_A);
    const resolved = await resolve(app, freshToken);
    expect(resolved.status).toBe(200);
    expect(resolved.body.results).toMatchObject({ password: validSmsConfig().password, apiKey: validSmsConfig().apiKey });
    expect((await resolve(app, oldToken)).body).toEqual({ status: 400, error: 'verifyApiKey is not valid' });
    const replay = await app.post('/api/sms-config/add', {
      headers: { secretKey, 'idempotency-key': 'kept-under-b' },
      body: validSmsConfig(),
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.raw).toBe(added.raw);
    expect((await app.get(`/api/v1/sms-configs/${smsConfigId}`, { secretKey })).status).toBe(200);
    expect((await app.get('/api/v1/clients', { 'x-api-key': ADMIN_API_KEY })).body.results.items).toHaveLength(1);
  });
});
