import { createHash } from 'node:crypto';
import { SMS_CONFIG_SUMMARY_FIELDS } from './helpers/interface';
import { ADMIN_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const CLIENT_FIELDS = [
  'appDescription',
  'appUrl',
  'secretKey',
  'preferredSmsGateway',
  'preferredEmailGateway',
  'preferredPushNotificationGateway',
  'isHost',
  'smsConfig',
].sort();

describe('Clients', () => {
  let t: TestApp;
  const admin = { 'x-api-key': ADMIN_API_KEY };
  const addClient = (body: unknown, headers: Record<string, string> = admin) => t.post('/api/client/add', { headers, body });
  const getClient = (secretKey?: string, options: { body?: unknown; payload?: string; headers?: Record<string, string> } = {}) =>
    t.post('/api/client/get/secretKey', {
      ...options,
      headers: { ...(secretKey === undefined ? {} : { secretKey }), ...(options.headers ?? {}) },
    });

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  describe('POST /api/client/add', () => {
    it('should create a client and answer 200 with exactly the documented fields', async () => {
      const answer = await addClient({
        appName: 'Billing',
        appUrl: 'https://billing.example.com',
        appDescription: 'Sends invoices',
        preferredSmsGateway: 'twilio',
        isHost: true,
      });

      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual(['results', 'status']);
      expect(Object.keys(answer.body.results).sort()).toEqual(CLIENT_FIELDS);
      expect(answer.body.results).toEqual({
        appDescription: 'Sends invoices',
        appUrl: 'https://billing.example.com',
        secretKey: expect.stringMatching(/^sk_[A-Za-z0-9_-]{43}$/),
        preferredSmsGateway: 'twilio',
        preferredEmailGateway: null,
        preferredPushNotificationGateway: null,
        isHost: true,
        smsConfig: null,
      });
    });

    it('should answer null for the optional strings that were not given', async () => {
      const answer = await addClient({ appName: 'a', appUrl: 'http://localhost:8080/app', isHost: false });
      expect(answer.status).toBe(200);
      expect(answer.body.results.appDescription).toBeNull();
      expect(answer.body.results.preferredSmsGateway).toBeNull();
      expect(answer.body.results.isHost).toBe(false);
    });

    it('should store the client with only the digest of its secret key', async () => {
      const answer = await addClient({ appName: 'Stored', appUrl: 'https://s.example.com', isHost: false });
      const secretKey: string = answer.body.results.secretKey;
      const rows = await t.dataSource.query('SELECT * FROM client');
      expect(rows).toHaveLength(1);
      expect(rows[0].app_name).toBe('Stored');
      expect(rows[0].secret_key_digest).toBe(createHash('sha256').update(secretKey).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(secretKey);
      expect(JSON.stringify(rows)).not.toContain(secretKey.slice(3));
    });

    it('should issue a different secret key to every client, even with the same appName', async () => {
      const keys = new Set<string>();
      for (let i = 0; i < 5; i++)
        keys.add((await addClient({ appName: 'Same', appUrl: 'https://a.example.com', isHost: false })).body.results.secretKey);
      expect(keys.size).toBe(5);
    });

    it('should give hundreds of concurrent creations distinct keys, every one readable', async () => {
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          addClient({ appName: `concurrent-${i}`, appUrl: 'https://a.example.com', isHost: i % 2 === 0 }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(300).fill(200));
      const keys = answers.map((answer) => answer.body.results.secretKey as string);
      expect(new Set(keys).size).toBe(300);
      const reads = await Promise.all(keys.map((secretKey) => getClient(secretKey)));
      expect(reads.filter((read) => read.status !== 200 || read.body.results.secretKey === undefined)).toEqual([]);
      expect(await t.dataSource.query('SELECT id FROM client')).toHaveLength(300);
    });

    it.each([
      [{ appUrl: 'https://a.example.com', isHost: false }, 'appName must be a string'],
      [{ appName: '', appUrl: 'https://a.example.com', isHost: false }, 'appName must be longer than or equal to 1'],
      [{ appName: 'x'.repeat(101), appUrl: 'https://a.example.com', isHost: false }, 'appName must be shorter than or equal to 100'],
      [{ appName: 42, appUrl: 'https://a.example.com', isHost: false }, 'appName must be a string'],
      [{ appName: 'a', isHost: false }, 'appUrl must be a string'],
      [{ appName: 'a', appUrl: 'not a url', isHost: false }, 'appUrl must be an absolute http(s) URL'],
      [{ appName: 'a', appUrl: 'ftp://files.example.com', isHost: false }, 'appUrl must be an absolute http(s) URL'],
      [{ appName: 'a', appUrl: '/relative/path', isHost: false }, 'appUrl must be an absolute http(s) URL'],
      [
        { appName: 'a', appUrl: `https://a.example.com/${'p'.repeat(2048)}`, isHost: false },
        'appUrl must be shorter than or equal to 2048',
      ],
      [
        { appName: 'a', appUrl: 'https://a.example.com', appDescription: 'd'.repeat(1001), isHost: false },
        'appDescription must be shorter than or equal to 1000',
      ],
      [{ appName: 'a', appUrl: 'https://a.example.com', appDescription: 5, isHost: false }, 'appDescription must be a string'],
      [
        { appName: 'a', appUrl: 'https://a.example.com', preferredSmsGateway: 'g'.repeat(101), isHost: false },
        'preferredSmsGateway must be shorter than or equal to 100',
      ],
      [{ appName: 'a', appUrl: 'https://a.example.com' }, 'isHost must be a boolean value'],
      [{ appName: 'a', appUrl: 'https://a.example.com', isHost: 'true' }, 'isHost must be a boolean value'],
      [{ appName: 'a', appUrl: 'https://a.example.com', isHost: 1 }, 'isHost must be a boolean value'],
      [{ appName: 'a', appUrl: 'https://a.example.com', isHost: false, secretKey: 'sk_mine' }, 'property secretKey should not exist'],
      [
        { appName: 'a', appUrl: 'https://a.example.com', isHost: false, preferredEmailGateway: 'ses' },
        'property preferredEmailGateway should not exist',
      ],
    ])('should answer 400 for %j naming the problem', async (body, message) => {
      const answer = await addClient(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 400, error: expect.stringContaining(message) });
      expect(await t.dataSource.query('SELECT id FROM client')).toHaveLength(0);
    });

    it('should name every failing field in one message', async () => {
      const answer = await addClient({ appName: 7, appUrl: 'https://a.example.com', isHost: 'yes' });
      expect(answer.body).toEqual({ status: 400, error: 'appName must be a string; isHost must be a boolean value' });
    });

    it('should answer 400 for a body that is not a JSON object', async () => {
      for (const payload of ['[]', '"text"', '42', 'null']) {
        const answer = await t.post('/api/client/add', { headers: { ...admin, 'content-type': 'application/json' }, payload });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ status: 400, error: 'request body must be a JSON object' });
      }
    });

    it('should answer 401 without an admin key and create nothing', async () => {
      const answer = await addClient({ appName: 'a', appUrl: 'https://a.example.com', isHost: false }, {});
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ status: 401, error: 'x-api-key header is required' });
      expect(await t.dataSource.query('SELECT id FROM client')).toHaveLength(0);
    });

    it('should answer 401 for a wrong admin key', async () => {
      const answer = await addClient(
        { appName: 'a', appUrl: 'https://a.example.com', isHost: false },
        { 'x-api-key': `${ADMIN_API_KEY}x` },
      );
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ status: 401, error: 'x-api-key is not valid' });
    });

    it('should check the admin key before validating the body', async () => {
      const answer = await addClient({ nonsense: true }, {});
      expect(answer.status).toBe(401);
    });
  });

  describe('POST /api/client/get/secretKey', () => {
    it('should answer the client with its key echoed and smsConfig null while it has none', async () => {
      const created = await addClient({
        appName: 'Billing',
        appUrl: 'https://billing.example.com',
        appDescription: 'Sends invoices',
        preferredSmsGateway: 'twilio',
        isHost: true,
      });
      const secretKey = created.body.results.secretKey;

      const answer = await getClient(secretKey);

      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 200, results: created.body.results });
      expect(answer.body.results).not.toHaveProperty('appName');
    });

    it('should list the SMS configurations in the order they were added, without ids or secrets', async () => {
      const secretKey = await t.addClient();
      const first = validSmsConfig({ providerName: 'first', balance: 0.000001, perSmsCost: 999999999999.5 });
      const second = validSmsConfig({ providerName: 'second', isActive: false, balance: 0, perSmsCost: 0 });
      for (const body of [first, second]) {
        expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body })).status).toBe(200);
      }

      const answer = await getClient(secretKey);

      expect(answer.status).toBe(200);
      const visible = ({ password: _p, apiKey: _a, ...rest }: Record<string, unknown>) => rest;
      expect(answer.body.results.smsConfig).toEqual([visible(first), visible(second)]);
      for (const smsConfig of answer.body.results.smsConfig) {
        expect(Object.keys(smsConfig).sort()).toEqual(SMS_CONFIG_SUMMARY_FIELDS);
      }
      expect(answer.raw).not.toContain(first.password);
      expect(answer.raw).not.toContain(first.apiKey);
    });

    it('should answer 404 for a key no client has', async () => {
      await t.addClient();
      for (const unknown of ['sk_' + 'A'.repeat(43), 'not-even-a-key']) {
        const answer = await getClient(unknown);
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ status: 404, error: 'No client matches the secretKey' });
      }
    });

    it('should answer 401 when the secretKey header is missing', async () => {
      const answer = await getClient(undefined);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ status: 401, error: 'secretKey header is required' });
    });

    it('should read the secretKey header whatever its case', async () => {
      const secretKey = await t.addClient();
      const answer = await t.post('/api/client/get/secretKey', { headers: { SECRETKEY: secretKey } });
      expect(answer.status).toBe(200);
    });

    it('should accept no body, an empty JSON body and {}', async () => {
      const secretKey = await t.addClient();
      expect((await getClient(secretKey)).status).toBe(200);
      expect((await getClient(secretKey, { payload: '', headers: { 'content-type': 'application/json' } })).status).toBe(200);
      expect((await getClient(secretKey, { body: {} })).status).toBe(200);
    });

    it('should check the secretKey before the body, as every route checks its credential first', async () => {
      const unknown = await getClient('sk_' + 'B'.repeat(43), { body: { nonsense: true } });
      expect(unknown.body).toEqual({ status: 404, error: 'No client matches the secretKey' });
      const missing = await getClient(undefined, { body: { nonsense: true } });
      expect(missing.body).toEqual({ status: 401, error: 'secretKey header is required' });
    });

    it('should answer 400 for a body with fields', async () => {
      const secretKey = await t.addClient();
      const answer = await getClient(secretKey, { body: { secretKey } });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 400, error: 'property secretKey should not exist' });
    });
  });
});
