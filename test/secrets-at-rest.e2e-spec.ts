import { createHash } from 'node:crypto';
import { SecretSealer } from '../src/crypto/secret-sealer';
import { KEY_A, KEY_B, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';

/** Reads every column of every row, as an attacker holding a copy of the database would. */
async function everythingStored(t: TestApp): Promise<string> {
  const clients = await t.dataSource.query('SELECT * FROM client');
  const smsConfigs = await t.dataSource.query('SELECT * FROM sms_config');
  return JSON.stringify({ clients, smsConfigs });
}

describe('Secrets at rest', () => {
  let databaseUrl: string;
  let t: TestApp;

  beforeAll(async () => {
    databaseUrl = await testDatabaseUrl();
    t = await startTestApp({ DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: KEY_A });
  });
  afterAll(() => t.close());

  it('should store no secret key, provider password or apiKey in plaintext', async () => {
    const secretKey = await t.addClient();
    const smsConfig = validSmsConfig();
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: smsConfig })).status).toBe(200);

    const stored = await everythingStored(t);

    for (const secret of [secretKey, secretKey.slice(3), smsConfig.password, smsConfig.apiKey]) {
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(Buffer.from(secret).toString('base64'));
      expect(stored).not.toContain(Buffer.from(secret).toString('hex'));
    }
    const [client] = await t.dataSource.query('SELECT secret_key_digest FROM client');
    expect(client.secret_key_digest).toBe(createHash('sha256').update(secretKey).digest('hex'));
    const [row] = await t.dataSource.query('SELECT password_sealed, api_key_sealed FROM sms_config');
    expect(row.password_sealed).toMatch(/^keyA:[A-Za-z0-9_-]+$/);
    expect(row.api_key_sealed).toMatch(/^keyA:[A-Za-z0-9_-]+$/);
    const sealer = t.app.get(SecretSealer);
    expect(sealer.open(row.password_sealed)).toBe(smsConfig.password);
    expect(sealer.open(row.api_key_sealed)).toBe(smsConfig.apiKey);
  });

  it('should store no password or apiKey when none is given', async () => {
    const secretKey = await t.addClient();
    await t.post('/api/sms-config/add', { headers: { secretKey }, body: { providerName: 'p', smsApi: 'https://s.example.com' } });
    const rows = await t.dataSource.query('SELECT password_sealed, api_key_sealed FROM sms_config');
    expect(rows.at(-1)).toEqual({ password_sealed: null, api_key_sealed: null });
  });

  it('should still open rows and tokens sealed under an older key after a new key is put first', async () => {
    await t.reset();
    const secretKey = await t.addClient();
    const smsConfig = validSmsConfig({ password: 'sealed-under-A', apiKey: 'api-key-under-A' });
    const token = (await t.post('/api/sms-config/add', { headers: { secretKey }, body: smsConfig })).body.results.verifyApiKey;
    const [smsRow] = await t.dataSource.query('SELECT id, client_id, password_sealed FROM sms_config');
    await t.close();

    t = await startTestApp({ DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: `${KEY_B},${KEY_A}` }, { keepData: true });
    const sealer = t.app.get(SecretSealer);

    expect(sealer.open(smsRow.password_sealed)).toBe('sealed-under-A');
    const claims = sealer.openVerifyApiKey(token);
    expect(claims).toEqual({ smsConfigId: Number(smsRow.id), clientId: Number(smsRow.client_id), apiKeyFingerprint: expect.any(String) });
    expect(sealer.fingerprint('api-key-under-A', 'keyA')).toBe(claims.apiKeyFingerprint);

    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    const rows = await t.dataSource.query('SELECT password_sealed FROM sms_config ORDER BY id');
    expect(rows[0].password_sealed).toMatch(/^keyA:/);
    expect(rows[1].password_sealed).toMatch(/^keyB:/);
    expect((await t.post('/api/client/get/secretKey', { headers: { secretKey } })).body.results.smsConfig).toHaveLength(2);
  });

  it('should refuse to open a value once its key is no longer configured', () => {
    const onlyB = new SecretSealer([{ id: 'keyB', key: Buffer.from(KEY_B.split(':')[1], 'base64') }]);
    const sealedUnderA = new SecretSealer([{ id: 'keyA', key: Buffer.from(KEY_A.split(':')[1], 'base64') }]).seal('x');
    expect(() => onlyB.open(sealedUnderA)).toThrow('sealed with an unknown key');
  });
});
