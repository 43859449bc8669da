import { createHash } from 'node:crypto';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const DISPATCHER_ACTOR = `dispatcher:${createHash('sha256').update(DISPATCHER_API_KEY).digest('hex').slice(0, 8)}`;

describe('SMS configuration lifecycle and credential resolution', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await approveProviderHosts(t);
  });
  afterAll(async () => t.close());
  beforeEach(async () => t.reset());

  /** A client with one configuration (the fixture), its key, ids and verifyApiKey. */
  async function clientWithConfig(overrides: Record<string, unknown> = {}) {
    const appName = `app-${Math.random().toString(36).slice(2)}`;
    const secretKey = await t.addClient({ appName });
    const added = await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig(overrides) });
    const [config] = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
    const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    return { secretKey, clientId, smsConfigId: config.smsConfigId as number, verifyApiKey: added.body.results.verifyApiKey as string };
  }

  const resolve = (verifyApiKey: unknown, headers: Record<string, string> = DISPATCHER) =>
    t.post('/api/v1/sms-configs/resolve', { headers, body: { verifyApiKey } });

  describe('GET, PATCH, DELETE /api/v1/sms-configs/:smsConfigId', () => {
    it('should answer one configuration with the fields of the list, and 404 for another client’s or a missing id', async () => {
      const mine = await clientWithConfig();
      const other = await clientWithConfig();
      const listed = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: mine.secretKey } })).body.results[0];
      const answer = await t.get(`/api/v1/sms-configs/${mine.smsConfigId}`, { secretKey: mine.secretKey });
      expect(answer.status).toBe(200);
      // The v1 read shows lowBalanceThreshold and destinationPrices too, which the seed's list never does.
      expect(answer.body).toMatchObject({
        status: 200,
        results: { ...listed, lowBalanceThreshold: null, destinationApproved: true, destinationPrices: null },
      });
      expect(answer.raw).not.toContain(validSmsConfig().password);
      const notFound = { status: 404, error: 'SMS configuration not found' };
      expect((await t.get(`/api/v1/sms-configs/${other.smsConfigId}`, { secretKey: mine.secretKey })).body).toEqual(notFound);
      expect((await t.get('/api/v1/sms-configs/2147483647', { secretKey: mine.secretKey })).body).toEqual(notFound);
      expect((await t.get('/api/v1/sms-configs/x', { secretKey: mine.secretKey })).body).toEqual({
        status: 400,
        error: 'smsConfigId must be a positive integer',
      });
      expect((await t.get(`/api/v1/sms-configs/${mine.smsConfigId}`)).status).toBe(401);
    });

    it('should change the fields sent, clear with null, replace secrets unseen, and show it in get-client and the list', async () => {
      const { secretKey, smsConfigId, verifyApiKey } = await clientWithConfig();
      const answer = await t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, {
        headers: { secretKey },
        // username is where the credentials go: clearing it takes both credentials again.
        body: {
          providerName: 'vonage',
          username: null,
          balance: null,
          isActive: false,
          password: 'new-pass',
          apiKey: validSmsConfig().apiKey,
          senderId: 'NEW',
        },
      });
      expect(answer.status).toBe(200);
      // The seed's fields as changed, which get-client and the list show exactly.
      const config = {
        smsConfigId,
        providerName: 'vonage',
        providerUrl: 'https://twilio.com',
        username: null,
        senderId: 'NEW',
        smsType: 'Transactional',
        smsApi: 'https://api.twilio.com/send',
        balanceUrl: 'https://api.twilio.com/balance',
        balance: 0,
        perSmsCost: 0.0125,
        isActive: false,
      };
      expect(answer.body.results).toMatchObject({
        ...config,
        lowBalanceThreshold: null,
        destinationApproved: true,
        destinationPrices: null,
      });
      const freshToken = answer.body.results.verifyApiKey as string;
      expect(freshToken.length).toBeGreaterThanOrEqual(64);
      expect(answer.raw).not.toContain('new-pass');
      expect((await t.post('/api/client/get/secretKey', { headers: { secretKey } })).body.results.smsConfig).toEqual(
        [{ ...config, smsConfigId: undefined }].map(({ smsConfigId: _id, ...rest }) => rest),
      );
      expect((await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results).toEqual([config]);
      // The password changed: the old token is stale; the fresh one stands, but the configuration is inactive.
      expect((await resolve(verifyApiKey)).body).toEqual({ status: 409, error: 'verifyApiKey is stale' });
      expect((await resolve(freshToken)).body).toEqual({ status: 409, error: 'SMS configuration is inactive' });
      await t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, { headers: { secretKey }, body: { isActive: true } });
      const resolved = await resolve(freshToken);
      expect(resolved.body.results).toMatchObject({ password: 'new-pass', apiKey: validSmsConfig().apiKey, providerName: 'vonage' });
      const [stored] = await t.dataSource.query('SELECT password_sealed AS password FROM sms_config');
      expect(stored.password).not.toContain('new-pass');
    });

    it('should refuse an empty body, clientId, an unknown field and values breaking the add rules', async () => {
      const { secretKey, smsConfigId } = await clientWithConfig();
      const patch = (body: unknown) => t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, { headers: { secretKey }, body });
      expect((await patch({})).status).toBe(400);
      expect((await patch({ clientId: 1 })).body).toEqual({ status: 400, error: 'property clientId should not exist' });
      expect((await patch({ providerName: null })).status).toBe(400);
      expect((await patch({ smsApi: 'http://10.0.0.1/send' })).status).toBe(400);
      expect((await patch({ balance: 1.0000001 })).status).toBe(400);
      expect((await patch({ senderId: 'x'.repeat(21) })).status).toBe(400);
    });

    it('should delete a configuration of its own client only, and show it gone everywhere', async () => {
      const mine = await clientWithConfig();
      const other = await clientWithConfig();
      expect((await t.send('DELETE', `/api/v1/sms-configs/${other.smsConfigId}`, { headers: { secretKey: mine.secretKey } })).status).toBe(
        404,
      );
      const answer = await t.send('DELETE', `/api/v1/sms-configs/${mine.smsConfigId}`, { headers: { secretKey: mine.secretKey } });
      expect(answer.body).toEqual({ status: 200, results: { smsConfigId: mine.smsConfigId, deleted: true } });
      expect((await t.post('/api/client/get/secretKey', { headers: { secretKey: mine.secretKey } })).body.results.smsConfig).toBeNull();
      expect((await t.get(`/api/v1/clients/${mine.clientId}`, ADMIN)).body.results.smsConfigCount).toBe(0);
      expect((await resolve(mine.verifyApiKey)).body).toEqual({ status: 404, error: 'SMS configuration not found' });
      expect((await t.send('DELETE', `/api/v1/sms-configs/${mine.smsConfigId}`, { headers: { secretKey: mine.secretKey } })).status).toBe(
        404,
      );
    });

    it('should audit created, updated (field names only) and deleted as the client', async () => {
      const { secretKey, smsConfigId, clientId } = await clientWithConfig();
      await t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, {
        headers: { secretKey },
        body: { apiKey: 'replaced', smsType: 'Promotional' },
      });
      await t.send('DELETE', `/api/v1/sms-configs/${smsConfigId}`, { headers: { secretKey } });
      const events = await t.get(`/api/v1/audit-events?clientId=${clientId}`, ADMIN);
      expect(
        events.body.results.items.map((event: Record<string, unknown>) => [event.action, event.actor, event.smsConfigId, event.changed]),
      ).toEqual([
        ['sms-config.deleted', `client:${clientId}`, smsConfigId, []],
        ['sms-config.updated', `client:${clientId}`, smsConfigId, ['apiKey', 'smsType']],
        ['sms-config.created', `client:${clientId}`, smsConfigId, []],
        ['client.created', expect.stringMatching(/^admin:/), null, []],
      ]);
      expect(events.raw).not.toContain('replaced');
    });
  });

  describe('POST /api/v1/sms-configs/resolve', () => {
    it('should answer the configuration with its secrets, no-store, only to a dispatcher, and audit it', async () => {
      const { verifyApiKey, clientId, smsConfigId } = await clientWithConfig();
      const answer = await resolve(verifyApiKey);
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
      const fixture = validSmsConfig();
      expect(answer.body).toMatchObject({
        status: 200,
        results: {
          smsConfigId,
          clientId,
          providerName: fixture.providerName,
          providerUrl: fixture.providerUrl,
          smsApi: fixture.smsApi,
          balanceUrl: fixture.balanceUrl,
          username: fixture.username,
          password: fixture.password,
          apiKey: fixture.apiKey,
          senderId: fixture.senderId,
          smsType: fixture.smsType,
          balance: fixture.balance,
          perSmsCost: fixture.perSmsCost,
          isActive: fixture.isActive,
          lowBalanceThreshold: null,
          destinationApproved: true,
        },
      });
      const [entry] = (await t.get('/api/v1/audit-events?action=sms-config.credentials-resolved', ADMIN)).body.results.items;
      expect(entry).toMatchObject({ actor: DISPATCHER_ACTOR, clientId, smsConfigId, changed: [] });
    });

    it('should refuse an admin key with 403, any other key with 401, and a secretKey too', async () => {
      const { verifyApiKey, secretKey } = await clientWithConfig();
      expect((await resolve(verifyApiKey, ADMIN)).body).toEqual({
        status: 403,
        error: 'x-api-key is an admin key; only a dispatcher key may resolve credentials',
      });
      expect((await resolve(verifyApiKey, { 'x-api-key': 'not-a-dispatcher-key' })).body).toEqual({
        status: 401,
        error: 'x-api-key is not valid',
      });
      expect((await resolve(verifyApiKey, {})).body).toEqual({ status: 401, error: 'x-api-key header is required' });
      expect((await resolve(verifyApiKey, { secretKey })).status).toBe(401);
    });

    it('should answer 400 for a token that does not open, 403 for a disabled client and 409 once the apiKey changed', async () => {
      const { verifyApiKey, secretKey, smsConfigId, clientId } = await clientWithConfig();
      const invalid = { status: 400, error: 'verifyApiKey is not valid' };
      const altered = Buffer.from(verifyApiKey, 'base64url');
      altered[altered.length - 1] ^= 1;
      for (const token of ['garbled', '', altered.toString('base64url'), 'A'.repeat(90)]) {
        const answer = await resolve(token);
        expect({ token, answer: answer.body }).toEqual({
          token,
          answer: token === '' ? expect.objectContaining({ status: 400 }) : invalid,
        });
      }
      expect((await resolve(42)).status).toBe(400);

      await t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: false } });
      expect((await resolve(verifyApiKey)).body).toEqual({ status: 403, error: 'Client is disabled' });
      await t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: true } });

      const changed = await t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, {
        headers: { secretKey },
        body: { apiKey: 'rotated-api-key' },
      });
      expect((await resolve(verifyApiKey)).body).toEqual({ status: 409, error: 'verifyApiKey is stale' });
      const fresh = await resolve(changed.body.results.verifyApiKey);
      expect(fresh.body.results.apiKey).toBe('rotated-api-key');
    });
  });

  describe('POST /api/v1/sms-configs/:smsConfigId/verify-api-key', () => {
    it('should issue a fresh token that resolves, leave the stored secrets alone, and keep the old token working', async () => {
      const { secretKey, smsConfigId, verifyApiKey } = await clientWithConfig();
      const [before] = await t.dataSource.query('SELECT password_sealed AS p, api_key_sealed AS k FROM sms_config');
      const answer = await t.post(`/api/v1/sms-configs/${smsConfigId}/verify-api-key`, { headers: { secretKey } });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 200, results: { verifyApiKey: expect.any(String) } });
      expect(answer.body.results.verifyApiKey).not.toBe(verifyApiKey);
      expect((await resolve(answer.body.results.verifyApiKey)).status).toBe(200);
      expect((await resolve(verifyApiKey)).status).toBe(200);
      expect(await t.dataSource.query('SELECT password_sealed AS p, api_key_sealed AS k FROM sms_config')).toEqual([before]);
      const other = await clientWithConfig();
      expect((await t.post(`/api/v1/sms-configs/${other.smsConfigId}/verify-api-key`, { headers: { secretKey } })).status).toBe(404);
    });
  });
});
