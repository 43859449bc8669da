import { parseEncryptionKeys } from '../src/config/encryption-keys';
import { SecretSealer } from '../src/crypto/secret-sealer';
import { apiKeySealContext } from '../src/sms-config/sms-config-seal-context';
import { keylessVerifyApiKey } from './helpers/keyless-token';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, KEY_A, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const STALE = { status: 409, error: 'verifyApiKey is stale' };
const REVOKED = { status: 409, error: 'verifyApiKey was issued under a secret key that is no longer valid' };
const INACTIVE = { status: 409, error: 'SMS configuration is inactive' };
const NOT_VALID = { status: 400, error: 'verifyApiKey is not valid' };
const EVIL = 'https://evil.example.net/steal';

/**
 * What a stolen secretKey must not reach: it cannot send the stored provider credentials somewhere new, and the tokens
 * taken with it die with it. Two instances on one database, as a dispatcher may resolve on another replica than the one
 * that issued the token.
 */
describe('Custody of provider credentials', () => {
  let t: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    const databaseUrl = await testDatabaseUrl();
    t = await startTestApp({ DATABASE_URL: databaseUrl });
    other = await startTestApp({ DATABASE_URL: databaseUrl }, { keepData: true });
    await approveProviderHosts(t);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });
  beforeEach(async () => t.reset());

  /** A client with one configuration, its key, ids and verifyApiKey. */
  async function clientWithConfig(overrides: Record<string, unknown> = {}) {
    const appName = `custody-${Math.random().toString(36).slice(2)}`;
    const secretKey = await t.addClient({ appName });
    const added = await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig(overrides) });
    expect(added.status).toBe(200);
    const [config] = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
    const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    return { secretKey, clientId, smsConfigId: config.smsConfigId as number, verifyApiKey: added.body.results.verifyApiKey as string };
  }

  const resolve = (verifyApiKey: unknown, through: TestApp = t) =>
    through.post('/api/v1/sms-configs/resolve', { headers: DISPATCHER, body: { verifyApiKey } });
  const patch = (secretKey: string, smsConfigId: number, body: unknown) =>
    t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, { headers: { secretKey }, body });
  const issue = (secretKey: string, smsConfigId: number) =>
    t.post(`/api/v1/sms-configs/${smsConfigId}/verify-api-key`, { headers: { secretKey } });
  const stored = async () => t.dataSource.query('SELECT * FROM sms_config');
  const updatesAudited = async (clientId: number) =>
    (await t.get(`/api/v1/audit-events?clientId=${clientId}&action=sms-config.updated`, ADMIN)).body.results.items.length;

  describe('a change of where the credentials go carries them again', () => {
    it('should refuse the redirect of a stolen key with 400 naming the fields, and change nothing', async () => {
      const { secretKey, smsConfigId, clientId, verifyApiKey } = await clientWithConfig();
      const before = await stored();
      const beforeAnswer = (await t.get(`/api/v1/sms-configs/${smsConfigId}`, { secretKey })).body;

      expect((await patch(secretKey, smsConfigId, { smsApi: EVIL })).body).toEqual({
        status: 400,
        error: 'password and apiKey must be sent again to change smsApi',
      });
      expect((await patch(secretKey, smsConfigId, { smsApi: EVIL, username: 'thief', senderId: 'X' })).body).toEqual({
        status: 400,
        error: 'password and apiKey must be sent again to change smsApi, username',
      });
      expect((await patch(secretKey, smsConfigId, { providerUrl: EVIL, password: 'guessed' })).body).toEqual({
        status: 400,
        error: 'apiKey must be sent again to change providerUrl',
      });
      expect((await patch(secretKey, smsConfigId, { balanceUrl: EVIL, apiKey: 'guessed' })).body).toEqual({
        status: 400,
        error: 'password must be sent again to change balanceUrl',
      });

      expect(await stored()).toEqual(before);
      expect((await t.get(`/api/v1/sms-configs/${smsConfigId}`, { secretKey })).body).toEqual(beforeAnswer);
      expect(await updatesAudited(clientId)).toBe(0);
      const resolved = await resolve(verifyApiKey);
      expect(resolved.status).toBe(200);
      expect(resolved.body.results.smsApi).toBe(validSmsConfig().smsApi);
    });

    it('should ask only for the credentials the configuration holds, and take null (removing one) as sent', async () => {
      const withPassword = await clientWithConfig({ apiKey: undefined });
      expect((await patch(withPassword.secretKey, withPassword.smsConfigId, { smsApi: EVIL })).body).toEqual({
        status: 400,
        error: 'password must be sent again to change smsApi',
      });
      const noCredentials = await clientWithConfig({ password: undefined, apiKey: undefined });
      expect((await patch(noCredentials.secretKey, noCredentials.smsConfigId, { smsApi: 'https://new.example.com/send' })).status).toBe(
        200,
      );
      const moved = 'https://moved.example.com/send';
      const cleared = await patch(withPassword.secretKey, withPassword.smsConfigId, { smsApi: moved, password: null });
      expect(cleared.status).toBe(200);
      const resolved = await resolve(cleared.body.results.verifyApiKey);
      expect(resolved.body.results).toMatchObject({ smsApi: moved, password: null, apiKey: null });
    });

    it('should take the change with the credentials sent again, and let only the new token resolve', async () => {
      const { secretKey, smsConfigId, verifyApiKey } = await clientWithConfig();
      const changed = await patch(secretKey, smsConfigId, { smsApi: 'https://moved.example.com/send', password: 'p2', apiKey: 'k2' });
      expect(changed.status).toBe(200);
      expect((await resolve(verifyApiKey)).body).toEqual(STALE);
      expect((await resolve(changed.body.results.verifyApiKey)).body.results).toMatchObject({
        smsApi: 'https://moved.example.com/send',
        password: 'p2',
        apiKey: 'k2',
      });
    });
  });

  describe('a token resolves only for the credentials and destination it was issued for', () => {
    // No stored credentials: a destination alone may change, so the staleness is the destination's own.
    it.each([
      ['smsApi', 'https://moved.example.com/send', {}],
      ['providerUrl', 'https://moved.example.com', {}],
      ['balanceUrl', 'https://moved.example.com/balance', {}],
      ['username', 'someone-else', {}],
      ['password', 'a-new-password', {}],
      ['apiKey', 'a-new-api-key', {}],
      ['providerUrl', null, { providerUrl: 'https://was.example.com' }],
      ['password', null, { password: 'was-set' }],
    ])('should make earlier tokens stale when %s changes to %p, on every instance', async (field, value, overrides) => {
      const { secretKey, smsConfigId, verifyApiKey } = await clientWithConfig({ password: undefined, apiKey: undefined, ...overrides });
      const fresh = (await issue(secretKey, smsConfigId)).body.results.verifyApiKey;
      const changed = await patch(secretKey, smsConfigId, { [field]: value });
      expect(changed.status).toBe(200);
      for (const token of [verifyApiKey, fresh]) {
        expect((await resolve(token)).body).toEqual(STALE);
        expect((await resolve(token, other)).body).toEqual(STALE);
      }
      expect((await resolve(changed.body.results.verifyApiKey, other)).body.results[field]).toBe(value);
    });

    it.each([
      ['providerName', 'vonage'],
      ['senderId', 'NEWSENDER'],
      ['smsType', 'Promotional'],
      ['balance', 99.5],
      ['perSmsCost', 0.5],
      ['isActive', true],
    ])('should leave earlier tokens valid when only %s changes', async (field, value) => {
      const { secretKey, smsConfigId, verifyApiKey } = await clientWithConfig();
      expect((await patch(secretKey, smsConfigId, { [field]: value })).status).toBe(200);
      const resolved = await resolve(verifyApiKey);
      expect(resolved.status).toBe(200);
      expect(resolved.body.results[field]).toBe(value);
    });

    it('should tell no apiKey from an empty one: a token for either is stale for the other', async () => {
      const none = await clientWithConfig({ apiKey: undefined });
      const empty = await patch(none.secretKey, none.smsConfigId, { apiKey: '' });
      expect((await resolve(none.verifyApiKey)).body).toEqual(STALE);
      expect((await resolve(empty.body.results.verifyApiKey)).body.results.apiKey).toBe('');

      const removed = await patch(none.secretKey, none.smsConfigId, { apiKey: null });
      expect((await resolve(empty.body.results.verifyApiKey)).body).toEqual(STALE);
      expect((await resolve(removed.body.results.verifyApiKey)).body.results.apiKey).toBeNull();
    });

    it('should tell them apart even when the previous release replaced the apiKey without counting a new version', async () => {
      const { smsConfigId, clientId, verifyApiKey } = await clientWithConfig({ apiKey: undefined });
      // What an instance of the previous release writes during a rolling deploy: the sealed value, no version change.
      const sealed = new SecretSealer(parseEncryptionKeys(KEY_A)).seal('', apiKeySealContext(clientId));
      await t.dataSource.query('UPDATE sms_config SET api_key_sealed = ? WHERE id = ?', [sealed, smsConfigId]);
      expect((await resolve(verifyApiKey)).body).toEqual(STALE);
    });

    it('should refuse an inactive configuration with 409, and resolve the same token once it is active again', async () => {
      const { secretKey, smsConfigId, verifyApiKey } = await clientWithConfig();
      expect((await patch(secretKey, smsConfigId, { isActive: false })).status).toBe(200);
      expect((await resolve(verifyApiKey)).body).toEqual(INACTIVE);
      expect((await resolve(verifyApiKey, other)).body).toEqual(INACTIVE);
      expect((await patch(secretKey, smsConfigId, { isActive: null })).status).toBe(200);
      expect((await resolve(verifyApiKey)).status).toBe(200);
    });
  });

  describe('a token lives only as long as the secret key that obtained it', () => {
    it('should cut every token taken with a key an admin revokes (grace 0), and keep those of the new key', async () => {
      const { secretKey, smsConfigId, clientId, verifyApiKey } = await clientWithConfig();
      const reissued = (await issue(secretKey, smsConfigId)).body.results.verifyApiKey;
      const revoked = await t.post(`/api/v1/clients/${clientId}/secret-key/rotate`, { headers: ADMIN, body: { graceSeconds: 0 } });
      expect(revoked.status).toBe(200);
      for (const token of [verifyApiKey, reissued]) {
        expect((await resolve(token)).body).toEqual(REVOKED);
        expect((await resolve(token, other)).body).toEqual(REVOKED);
      }
      const newKey = revoked.body.results.secretKey as string;
      const underNewKey = (await issue(newKey, smsConfigId)).body.results.verifyApiKey;
      expect((await resolve(underNewKey, other)).status).toBe(200);
    });

    it('should keep tokens of the previous key through its grace, on both instances, and cut them when it ends', async () => {
      const { secretKey: oldKey, smsConfigId, verifyApiKey } = await clientWithConfig();
      const rotated = await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey: oldKey }, body: { graceSeconds: 2 } });
      const newKey = rotated.body.results.secretKey as string;
      // Obtained with the previous key during its grace: as short-lived as that key.
      const duringGrace = (await issue(oldKey, smsConfigId)).body.results.verifyApiKey;
      const underNewKey = (await issue(newKey, smsConfigId)).body.results.verifyApiKey;
      for (const token of [verifyApiKey, duringGrace, underNewKey]) expect((await resolve(token, other)).status).toBe(200);

      const expiresAt = Date.parse(rotated.body.results.previousKeyExpiresAt);
      await new Promise((resolveSleep) => setTimeout(resolveSleep, Math.max(0, expiresAt - Date.now()) + 50));
      for (const through of [t, other]) {
        expect((await resolve(verifyApiKey, through)).body).toEqual(REVOKED);
        expect((await resolve(duringGrace, through)).body).toEqual(REVOKED);
        expect((await resolve(underNewKey, through)).status).toBe(200);
      }
    });

    it('should end the previous key’s tokens at once when the client rotates again', async () => {
      const { secretKey: first, verifyApiKey } = await clientWithConfig();
      const second = (await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey: first } })).body.results.secretKey;
      expect((await resolve(verifyApiKey)).status).toBe(200);
      expect((await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey: second } })).status).toBe(200);
      expect((await resolve(verifyApiKey)).body).toEqual(REVOKED);
    });

    it('should take a token issued before tokens named their key as issued under the current key: it ends with the next rotation', async () => {
      const { secretKey, smsConfigId, clientId } = await clientWithConfig();
      const encryptionKey = parseEncryptionKeys(KEY_A)[0];
      const sealer = new SecretSealer([encryptionKey]);
      const keyless = keylessVerifyApiKey(encryptionKey, {
        smsConfigId,
        clientId,
        apiKeyFingerprint: sealer.fingerprint(validSmsConfig().apiKey),
      });
      expect((await resolve(keyless)).status).toBe(200);
      expect((await patch(secretKey, smsConfigId, { smsType: 'Promotional' })).status).toBe(200);
      expect((await resolve(keyless)).status).toBe(200);
      expect((await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey }, body: { graceSeconds: 3600 } })).status).toBe(200);
      expect((await resolve(keyless)).body).toEqual(REVOKED);
    });

    it('should call a keyless token stale once the credentials change', async () => {
      const { secretKey, smsConfigId, clientId } = await clientWithConfig();
      const encryptionKey = parseEncryptionKeys(KEY_A)[0];
      const fingerprint = new SecretSealer([encryptionKey]).fingerprint(validSmsConfig().apiKey);
      const keyless = keylessVerifyApiKey(encryptionKey, { smsConfigId, clientId, apiKeyFingerprint: fingerprint });
      expect((await patch(secretKey, smsConfigId, { password: 'changed' })).status).toBe(200);
      expect((await resolve(keyless)).body).toEqual(STALE);
    });
  });

  describe('a token has one spelling', () => {
    it.each([
      ['padded with =', (token: string) => `${token}${'='.repeat(4 - (token.length % 4))}`],
      ['with + and / for - and _', (token: string) => token.replace(/-/g, '+').replace(/_/g, '/')],
      ['with a space inside', (token: string) => `${token.slice(0, 20)} ${token.slice(20)}`],
      ['with a leading space', (token: string) => ` ${token}`],
      ['with a trailing newline', (token: string) => `${token}\n`],
      ['with a trailing character', (token: string) => `${token}A`],
      ['with a trailing dot', (token: string) => `${token}.`],
    ])('should refuse the token %s with 400, and resolve it as issued', async (_spelling, respell) => {
      // Tokens until one has a - or _ to swap: the other spellings hold for any.
      let found: { verifyApiKey: string } | undefined;
      for (let attempt = 0; attempt < 20 && (found === undefined || respell(found.verifyApiKey) === found.verifyApiKey); attempt++) {
        found = await clientWithConfig();
      }
      const token = found!.verifyApiKey;
      expect(respell(token)).not.toBe(token);
      expect((await resolve(respell(token))).body).toEqual(NOT_VALID);
      expect((await resolve(token)).status).toBe(200);
    });
  });
});
