import { createHash } from 'node:crypto';
import { SecretSealer, UnsealError } from '../src/crypto/secret-sealer';
import { apiKeySealContext, passwordSealContext } from '../src/sms-config/sms-config-seal-context';
import { KEY_A, KEY_B, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';

/** A key that sealed the values below with SecretSealer v1 (no subkeys, no binding to a row), kept as they were then. */
const KEY_V1 = 'keyV1:AzhtotcMQXar4BVKf7TpHlOIvfInXJHG+zBlms8EOW4=';
const V1_PASSWORD = 'keyV1:BDbFe0AmD5XcBN8uC1oIHysBOq3r5MYpPSeTEBQSf4by6x82XiACl3i05MvfnatqUXCXDjg'; // 'password-sealed-before-v2'
const V1_API_KEY_FINGERPRINT = '6x_HeNPkZE6DnL9qCvot9SXUKFa8qqUswGmfAL2o-8M'; // of 'api-key-sealed-before-v2'
/** A verifyApiKey issued by v1 for smsConfigId 5, clientId 3 and V1_API_KEY_FINGERPRINT. */
const V1_TOKEN = 'BWtleVYxKt-HJ-t-3wME7yCZoR4cx3Y0AWZSYcRWExCrw63PstPt7_Nxli-UbuSqfw07yzWffkO7dSYecJ1TDhxStw3zJoT4mG_wK02NVT1XYfd9QQ';

/** A sealer built from the test keys alone, as a tool reading the database with them would be. */
function sealerOf(...keys: string[]): SecretSealer {
  return new SecretSealer(keys.map((key) => ({ id: key.split(':')[0], key: Buffer.from(key.split(':')[1], 'base64') })));
}

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
    t = await startTestApp({ DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: `${KEY_A},${KEY_V1}` });
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
    const [row] = await t.dataSource.query('SELECT client_id, password_sealed, api_key_sealed FROM sms_config');
    expect(row.password_sealed).toMatch(/^keyA:v2:[A-Za-z0-9_-]+$/);
    expect(row.api_key_sealed).toMatch(/^keyA:v2:[A-Za-z0-9_-]+$/);
    const sealer = t.app.get(SecretSealer);
    expect(sealer.open(row.password_sealed, passwordSealContext(row.client_id))).toBe(smsConfig.password);
    expect(sealer.open(row.api_key_sealed, apiKeySealContext(row.client_id))).toBe(smsConfig.apiKey);
  });

  it('should store no password or apiKey when none is given', async () => {
    const secretKey = await t.addClient();
    await t.post('/api/sms-config/add', { headers: { secretKey }, body: { providerName: 'p', smsApi: 'https://s.example.com' } });
    const rows = await t.dataSource.query('SELECT password_sealed, api_key_sealed FROM sms_config');
    expect(rows.at(-1)).toEqual({ password_sealed: null, api_key_sealed: null });
  });

  it('should not open a password copied into another client’s row, while the original still opens', async () => {
    await t.reset();
    for (const [appName, password] of [
      ['Owner', 'owner-provider-password'],
      ['Other', 'other-provider-password'],
    ]) {
      const secretKey = await t.addClient({ appName });
      expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig({ password }) })).status).toBe(200);
    }
    const [owner, other] = await t.dataSource.query('SELECT id, client_id, password_sealed FROM sms_config ORDER BY id');
    expect(Number(owner.client_id)).not.toBe(Number(other.client_id));

    await t.dataSource.query('UPDATE sms_config SET password_sealed = ? WHERE id = ?', [owner.password_sealed, other.id]);
    const [copied] = await t.dataSource.query('SELECT client_id, password_sealed FROM sms_config WHERE id = ?', [other.id]);
    expect(copied.password_sealed).toBe(owner.password_sealed);

    for (const sealer of [t.app.get(SecretSealer), sealerOf(KEY_A)]) {
      expect(() => sealer.open(copied.password_sealed, passwordSealContext(copied.client_id))).toThrow(UnsealError);
      expect(() => sealer.open(owner.password_sealed, apiKeySealContext(owner.client_id))).toThrow(UnsealError);
      expect(sealer.open(owner.password_sealed, passwordSealContext(owner.client_id))).toBe('owner-provider-password');
    }
  });

  it('should still open a row sealed before v2, and a verifyApiKey issued before v2', async () => {
    await t.reset();
    const secretKey = await t.addClient();
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    const [added] = await t.dataSource.query('SELECT id FROM sms_config');
    await t.dataSource.query('UPDATE sms_config SET password_sealed = ? WHERE id = ?', [V1_PASSWORD, added.id]);
    const [row] = await t.dataSource.query('SELECT client_id, password_sealed FROM sms_config');
    expect(row.password_sealed).toBe(V1_PASSWORD);

    for (const sealer of [t.app.get(SecretSealer), sealerOf(KEY_A, KEY_V1)]) {
      expect(sealer.open(row.password_sealed, passwordSealContext(row.client_id))).toBe('password-sealed-before-v2');
      expect(sealer.openVerifyApiKey(V1_TOKEN)).toEqual({
        smsConfigId: 5,
        clientId: 3,
        apiKeyFingerprint: V1_API_KEY_FINGERPRINT,
        keyId: 'keyV1',
        issue: null,
      });
      expect(sealer.fingerprint('api-key-sealed-before-v2', 'keyV1')).toBe(V1_API_KEY_FINGERPRINT);
    }
    expect((await t.post('/api/client/get/secretKey', { headers: { secretKey } })).body.results.smsConfig).toHaveLength(1);
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

    expect(sealer.open(smsRow.password_sealed, passwordSealContext(smsRow.client_id))).toBe('sealed-under-A');
    const claims = sealer.openVerifyApiKey(token);
    expect(claims).toEqual({
      smsConfigId: Number(smsRow.id),
      clientId: Number(smsRow.client_id),
      apiKeyFingerprint: expect.any(String),
      keyId: 'keyA',
      issue: { credentialVersion: 0, issuingKeyTag: expect.any(String), hasApiKey: true },
    });
    expect(sealer.fingerprint('api-key-under-A', 'keyA')).toBe(claims.apiKeyFingerprint);

    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    const rows = await t.dataSource.query('SELECT password_sealed FROM sms_config ORDER BY id');
    expect(rows[0].password_sealed).toMatch(/^keyA:v2:/);
    expect(rows[1].password_sealed).toMatch(/^keyB:v2:/);
    expect((await t.post('/api/client/get/secretKey', { headers: { secretKey } })).body.results.smsConfig).toHaveLength(2);
  });

  it('should refuse to open a value once its key is no longer configured', () => {
    const sealedUnderA = sealerOf(KEY_A).seal('x', passwordSealContext(1));
    expect(() => sealerOf(KEY_B).open(sealedUnderA, passwordSealContext(1))).toThrow('sealed with an unknown key');
  });
});
