import { setTimeout as sleep } from 'node:timers/promises';
import { ClientCache } from '../src/client-cache/client-cache';
import { SMS_CONFIG_LIST_FIELDS } from './helpers/interface';
import { TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

describe('SMS configurations', () => {
  let t: TestApp;
  const add = (secretKey: string | undefined, body: unknown) =>
    t.post('/api/sms-config/add', { headers: secretKey === undefined ? {} : { secretKey }, body });
  const list = (secretKey: string | undefined, options: { body?: unknown; payload?: string; headers?: Record<string, string> } = {}) =>
    t.post('/api/sms-config/get-all-by-client-id', {
      ...options,
      headers: { ...(secretKey === undefined ? {} : { secretKey }), ...(options.headers ?? {}) },
    });
  const rawSmsConfigWithBalance = (balance: string) =>
    JSON.stringify(validSmsConfig({ balance: 0 })).replace('"balance":0,', `"balance":${balance},`);
  const clientIdOf = async (secretKey: string): Promise<number> => {
    const [row] = await t.dataSource.query('SELECT id FROM client ORDER BY id DESC LIMIT 1');
    expect(secretKey).toBeDefined();
    return Number(row.id);
  };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  describe('POST /api/sms-config/add', () => {
    it('should store the configuration and answer a long opaque verifyApiKey', async () => {
      const secretKey = await t.addClient();
      const answer = await add(secretKey, validSmsConfig());

      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 200, results: { verifyApiKey: expect.stringMatching(/^[A-Za-z0-9_-]{64,}$/) } });
      const token: string = answer.body.results.verifyApiKey;
      expect(token).not.toContain(validSmsConfig().apiKey);
      expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain(validSmsConfig().apiKey);
      expect(await t.dataSource.query('SELECT id FROM sms_config')).toHaveLength(1);
    });

    it('should issue a different verifyApiKey for every configuration', async () => {
      const secretKey = await t.addClient();
      const first = await add(secretKey, validSmsConfig());
      const second = await add(secretKey, validSmsConfig());
      expect(first.body.results.verifyApiKey).not.toBe(second.body.results.verifyApiKey);
    });

    it('should accept only the required fields and apply the defaults', async () => {
      const secretKey = await t.addClient();
      const answer = await add(secretKey, { providerName: 'minimal', smsApi: 'http://sms.provider.example/send' });
      expect(answer.status).toBe(200);
      const listed = await list(secretKey);
      expect(listed.body.results).toEqual([
        {
          smsConfigId: expect.any(Number),
          providerName: 'minimal',
          providerUrl: null,
          username: null,
          senderId: null,
          smsType: null,
          smsApi: 'http://sms.provider.example/send',
          balanceUrl: null,
          balance: 0,
          perSmsCost: 0,
          isActive: true,
        },
      ]);
    });

    it('should accept a clientId that is the caller’s own', async () => {
      const secretKey = await t.addClient();
      const clientId = await clientIdOf(secretKey);
      expect((await add(secretKey, validSmsConfig({ clientId }))).status).toBe(200);
    });

    it('should answer 403 for the clientId of another client and store nothing', async () => {
      const victimKey = await t.addClient({ appName: 'victim' });
      const victimId = await clientIdOf(victimKey);
      const attackerKey = await t.addClient({ appName: 'attacker' });

      const answer = await add(attackerKey, validSmsConfig({ clientId: victimId }));

      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ status: 403, error: 'clientId does not belong to the client of this secretKey' });
      expect(await t.dataSource.query('SELECT id FROM sms_config')).toHaveLength(0);
    });

    it('should answer 401 when the secretKey is missing or unknown', async () => {
      await t.addClient();
      const missing = await add(undefined, validSmsConfig());
      expect(missing.status).toBe(401);
      expect(missing.body).toEqual({ status: 401, error: 'secretKey header is required' });
      const unknown = await add('sk_' + 'B'.repeat(43), validSmsConfig());
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual({ status: 401, error: 'secretKey is not valid' });
      expect(await t.dataSource.query('SELECT id FROM sms_config')).toHaveLength(0);
    });

    it.each([
      [{ providerName: undefined }, 'providerName must be a string'],
      [{ providerName: '' }, 'providerName must be longer than or equal to 1'],
      [{ providerName: 'p'.repeat(101) }, 'providerName must be shorter than or equal to 100'],
      [{ smsApi: undefined }, 'smsApi must be a string'],
      [{ smsApi: 'api.twilio.com/send' }, 'smsApi must be an absolute http(s) URL'],
      [{ providerUrl: 'javascript:alert(1)' }, 'providerUrl must be an absolute http(s) URL'],
      [{ balanceUrl: 'ftp://x.example.com' }, 'balanceUrl must be an absolute http(s) URL'],
      [{ username: 'u'.repeat(256) }, 'username must be shorter than or equal to 255'],
      [{ password: 'p'.repeat(1025) }, 'password must be shorter than or equal to 1024'],
      [{ apiKey: 'k'.repeat(4097) }, 'apiKey must be shorter than or equal to 4096'],
      [{ senderId: 's'.repeat(21) }, 'senderId must be shorter than or equal to 20'],
      [{ smsType: 't'.repeat(51) }, 'smsType must be shorter than or equal to 50'],
      [{ password: 123 }, 'password must be a string'],
      [{ balance: -1 }, 'balance must be a number >= 0 and < 1000000000000 with at most 6 decimal places'],
      [{ balance: 1e12 }, 'balance must be a number >= 0'],
      [{ balance: 1.0000001 }, 'balance must be a number >= 0'],
      [{ balance: '12.5' }, 'balance must be a number >= 0'],
      [{ perSmsCost: 0.00000001 }, 'perSmsCost must be a number >= 0'],
      [{ isActive: 'true' }, 'isActive must be a boolean value'],
      [{ clientId: 0 }, 'clientId must be a positive number'],
      [{ clientId: 1.5 }, 'clientId must be an integer number'],
      [{ clientId: '1' }, 'clientId must be an integer number'],
      [{ smsConfigId: 1 }, 'property smsConfigId should not exist'],
    ])('should answer 400 for %j naming the problem', async (change, message) => {
      const secretKey = await t.addClient();
      const answer = await add(secretKey, validSmsConfig(change));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 400, error: expect.stringContaining(message) });
      expect(await t.dataSource.query('SELECT id FROM sms_config')).toHaveLength(0);
    });

    it('should treat null optional fields as not given', async () => {
      const secretKey = await t.addClient();
      const answer = await add(secretKey, {
        providerName: 'p',
        smsApi: 'https://s.example.com',
        perSmsCost: null,
        username: null,
        isActive: null,
      });
      expect(answer.status).toBe(200);
      const [item] = (await list(secretKey)).body.results;
      expect(item).toMatchObject({ perSmsCost: 0, username: null, isActive: true });
    });

    it('should keep amounts with six decimal places exactly and answer them as JSON numbers', async () => {
      const secretKey = await t.addClient();
      const amounts = { balance: 999999.123456, perSmsCost: 0.000001 };
      expect((await add(secretKey, validSmsConfig(amounts))).status).toBe(200);
      const listed = await list(secretKey);
      expect(listed.body.results[0].balance).toBe(amounts.balance);
      expect(listed.body.results[0].perSmsCost).toBe(amounts.perSmsCost);
      expect(listed.raw).toContain('"perSmsCost":0.000001');
    });

    // JSON numbers arrive as doubles: these would be stored as 8589934592.000002, 1000000000000 and 0.
    it.each(['8589934592.000001', '999999999999.999999', '1e-400'])(
      'should refuse balance %s, which a double cannot hold, naming it, and store nothing',
      async (balance) => {
        const secretKey = await t.addClient();
        const answer = await t.post('/api/sms-config/add', {
          headers: { secretKey, 'content-type': 'application/json' },
          payload: rawSmsConfigWithBalance(balance),
        });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({
          status: 400,
          error: `balance cannot be kept exactly as a number: ${balance} (15 significant digits always can)`,
        });
        expect(await t.dataSource.query('SELECT id FROM sms_config')).toHaveLength(0);
      },
    );

    it('should keep a 16-digit amount a double holds exactly, and answer it with the same digits', async () => {
      const secretKey = await t.addClient();
      const answer = await t.post('/api/sms-config/add', {
        headers: { secretKey, 'content-type': 'application/json' },
        payload: rawSmsConfigWithBalance('1234567890.123456'),
      });
      expect(answer.status).toBe(200);
      expect((await list(secretKey)).raw).toContain('"balance":1234567890.123456,');
      const client = await t.post('/api/client/get/secretKey', { headers: { secretKey } });
      expect(client.raw).toContain('"balance":1234567890.123456,');
    });

    it('should refuse the 101st configuration of a client with 409', async () => {
      const secretKey = await t.addClient();
      for (let i = 0; i < 100; i++) {
        expect((await add(secretKey, validSmsConfig({ providerName: `p${i}` }))).status).toBe(200);
      }
      const answer = await add(secretKey, validSmsConfig({ providerName: 'one too many' }));
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ status: 409, error: 'A client can have at most 100 SMS configurations' });
      expect(await t.dataSource.query('SELECT id FROM sms_config')).toHaveLength(100);

      const otherKey = await t.addClient({ appName: 'other' });
      expect((await add(otherKey, validSmsConfig())).status).toBe(200);
    });

    it('should never exceed 100 configurations when adds for one client race', async () => {
      const secretKey = await t.addClient();
      const answers = await Promise.all(Array.from({ length: 130 }, (_, i) => add(secretKey, validSmsConfig({ providerName: `p${i}` }))));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(100);
      expect(statuses.filter((status) => status === 409)).toHaveLength(30);
      expect(await t.dataSource.query('SELECT id FROM sms_config')).toHaveLength(100);
      // The audit entry is written in the add's transaction: one per configuration stored, none for a refused add.
      const audited = await t.dataSource.query("SELECT sms_config_id AS id FROM audit_event WHERE action = 'sms-config.created'");
      expect(audited.map((row: { id: number }) => Number(row.id)).sort((x: number, y: number) => x - y)).toEqual(
        (await t.dataSource.query('SELECT id FROM sms_config ORDER BY id')).map((row: { id: number }) => Number(row.id)),
      );
    });
    if (process.env.TEST_DATABASE === 'mysql') {
      // Counting a client's stored configurations by reading them took gap locks: concurrent adds of neighbours deadlocked.
      it("should add a client's configuration while the next client's first one waits in its open transaction", async () => {
        const secretKey = await t.addClient();
        expect((await add(secretKey, validSmsConfig())).status).toBe(200);
        const nextClientId = await clientIdOf(await t.addClient({ appName: 'next' }));
        const neighbour = t.dataSource.createQueryRunner();
        await neighbour.connect();
        await neighbour.startTransaction();
        try {
          await neighbour.query('INSERT INTO sms_config (client_id, provider_name, sms_api) VALUES (?, ?, ?)', [
            nextClientId,
            'neighbour',
            'https://sms.example.com/send',
          ]);
          const answer = await Promise.race([add(secretKey, validSmsConfig()), sleep(5000, 'still waiting after 5 s', { ref: false })]);
          expect(answer).toMatchObject({ status: 200 });
        } finally {
          await neighbour.rollbackTransaction();
          await neighbour.release();
        }
      });
    }
  });

  describe('POST /api/sms-config/get-all-by-client-id', () => {
    it('should answer an empty list for a client without configurations', async () => {
      const secretKey = await t.addClient();
      const answer = await list(secretKey);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 200, results: [] });
    });

    it('should list only the caller’s configurations, ordered by smsConfigId, with exactly the documented fields', async () => {
      const secretKey = await t.addClient();
      const otherKey = await t.addClient({ appName: 'other' });
      await add(otherKey, validSmsConfig({ providerName: 'not mine' }));
      for (const providerName of ['c', 'a', 'b']) await add(secretKey, validSmsConfig({ providerName }));

      const answer = await list(secretKey);

      expect(answer.status).toBe(200);
      expect(answer.body.results.map((item: { providerName: string }) => item.providerName)).toEqual(['c', 'a', 'b']);
      const ids = answer.body.results.map((item: { smsConfigId: number }) => item.smsConfigId);
      expect(ids).toEqual([...ids].sort((x: number, y: number) => x - y));
      for (const item of answer.body.results) expect(Object.keys(item).sort()).toEqual(SMS_CONFIG_LIST_FIELDS);
      const { password: _p, apiKey: _a, ...visible } = validSmsConfig({ providerName: 'c' });
      expect(answer.body.results[0]).toEqual({ smsConfigId: expect.any(Number), ...visible });
      expect(answer.raw).not.toContain(validSmsConfig().password);
      expect(answer.raw).not.toContain(validSmsConfig().apiKey);
    });

    it('should accept no body, an empty JSON body, {} and the caller’s own clientId', async () => {
      const secretKey = await t.addClient();
      const clientId = await clientIdOf(secretKey);
      await add(secretKey, validSmsConfig());
      for (const options of [{}, { payload: '', headers: { 'content-type': 'application/json' } }, { body: {} }, { body: { clientId } }]) {
        const answer = await list(secretKey, options);
        expect(answer.status).toBe(200);
        expect(answer.body.results).toHaveLength(1);
      }
    });

    it('should answer 403 for another client’s clientId', async () => {
      const otherKey = await t.addClient({ appName: 'other' });
      const otherId = await clientIdOf(otherKey);
      await add(otherKey, validSmsConfig());
      const secretKey = await t.addClient();
      const answer = await list(secretKey, { body: { clientId: otherId } });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ status: 403, error: 'clientId does not belong to the client of this secretKey' });
    });

    it('should answer 401 when the secretKey is missing or unknown', async () => {
      expect((await list(undefined)).body).toEqual({ status: 401, error: 'secretKey header is required' });
      expect((await list('sk_' + 'C'.repeat(43))).body).toEqual({ status: 401, error: 'secretKey is not valid' });
    });

    it('should answer 400 for an unknown field or a malformed clientId', async () => {
      const secretKey = await t.addClient();
      expect((await list(secretKey, { body: { client: 1 } })).body).toEqual({ status: 400, error: 'property client should not exist' });
      expect((await list(secretKey, { body: { clientId: 'abc' } })).status).toBe(400);
    });
  });

  describe("the answer budget: 256 KiB of get-client answer for a client's configurations", () => {
    const BUDGET = 256 * 1024;
    const TOO_BIG = { status: 409, error: "A client's SMS configurations can take at most 262144 bytes of get-client answer" };
    const url = (length: number) => `https://api.twilio.com/${'u'.repeat(length - 'https://api.twilio.com/'.length)}`;
    /** Every text at its longest (ASCII): about 6.7 KB of answer, so 38 fit in the budget and a 39th does not. */
    const maximal = (i: number) =>
      validSmsConfig({
        providerName: `${i}`.padEnd(100, 'p'),
        providerUrl: url(2048),
        username: 'u'.repeat(255),
        senderId: 's'.repeat(20),
        smsType: 't'.repeat(50),
        smsApi: url(2048),
        balanceUrl: url(2048),
      });
    const getClient = (secretKey: string) => t.post('/api/client/get/secretKey', { headers: { secretKey } });
    /** The smsConfig array of get-client's answer, as sent. */
    const smsConfigText = (raw: string) => raw.slice(raw.indexOf('"smsConfig":') + '"smsConfig":'.length, -2);

    it('should refuse the add that would pass the budget with 409, keep get-client within it, even at the widest balances', async () => {
      const secretKey = await t.addClient();
      for (let i = 0; i < 38; i++) expect((await add(secretKey, maximal(i))).status).toBe(200);
      const refused = await add(secretKey, maximal(38));
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual(TOO_BIG);
      expect(await t.dataSource.query('SELECT id FROM sms_config')).toHaveLength(38);
      const answer = await getClient(secretKey);
      expect(answer.status).toBe(200);
      expect(answer.body.results.smsConfig).toHaveLength(38);
      expect(Buffer.byteLength(smsConfigText(answer.raw))).toBeLessThanOrEqual(BUDGET);
      expect(Buffer.byteLength(answer.raw)).toBeLessThanOrEqual(BUDGET);

      // A smaller configuration still fits in what is left; the other clients have their own budget.
      expect((await add(secretKey, validSmsConfig({ smsApi: url(2048) }))).status).toBe(200);
      expect((await add(await t.addClient({ appName: 'other' }), maximal(0))).status).toBe(200);

      // Reports change balances without a write: at their widest, with every configuration inactive, it still holds.
      await t.dataSource.query('UPDATE sms_config SET balance = -999999999999.999999, per_sms_cost = 999999999999.999999, is_active = 0');
      t.app.get(ClientCache).clear();
      const widest = await getClient(secretKey);
      expect(widest.body.results.smsConfig[0]).toMatchObject({ balance: expect.any(Number), isActive: false });
      expect(widest.body.results.smsConfig[0].balance).toBeLessThan(-999999999999);
      expect(Buffer.byteLength(smsConfigText(widest.raw))).toBeLessThanOrEqual(BUDGET);
      expect(Buffer.byteLength(smsConfigText(widest.raw))).toBeGreaterThan(BUDGET - 6000);
    });

    it('should refuse a PATCH that grows a text past the budget with 409 and change nothing, and let the others through', async () => {
      const secretKey = await t.addClient();
      for (let i = 0; i < 38; i++) expect((await add(secretKey, maximal(i))).status).toBe(200);
      expect((await add(secretKey, validSmsConfig())).status).toBe(200);
      const small = (await list(secretKey)).body.results[38].smsConfigId as number;
      const patch = (body: unknown) => t.send('PATCH', `/api/v1/sms-configs/${small}`, { headers: { secretKey }, body });

      const credentials = { password: validSmsConfig().password, apiKey: validSmsConfig().apiKey };
      const grown = { smsApi: url(2048), providerUrl: url(2048), balanceUrl: url(2048), ...credentials };
      const refused = await patch(grown);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual(TOO_BIG);
      expect((await t.get(`/api/v1/sms-configs/${small}`, { secretKey })).body.results.smsApi).toBe(validSmsConfig().smsApi);

      // Within the budget, numbers and isActive (counted at their widest), and a change that shrinks a part: all 200.
      expect((await patch({ smsApi: url(2048), ...credentials })).status).toBe(200);
      expect((await patch({ balance: 999999999999.5, perSmsCost: 123456.123456, isActive: false })).status).toBe(200);
      const first = (await list(secretKey)).body.results[0].smsConfigId as number;
      expect((await t.send('PATCH', `/api/v1/sms-configs/${first}`, { headers: { secretKey }, body: { senderId: null } })).status).toBe(
        200,
      );
      const answer = await getClient(secretKey);
      expect(Buffer.byteLength(smsConfigText(answer.raw))).toBeLessThanOrEqual(BUDGET);
    });

    it('should hold the budget when adds for one client race', async () => {
      const secretKey = await t.addClient();
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => add(secretKey, maximal(i))));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(38);
      const refusals = answers.filter((answer) => answer.status !== 200);
      expect(refusals.map((answer) => answer.body)).toEqual(Array.from({ length: 12 }, () => TOO_BIG));
      expect(await t.dataSource.query('SELECT id FROM sms_config')).toHaveLength(38);
      expect(Buffer.byteLength(smsConfigText((await getClient(secretKey)).raw))).toBeLessThanOrEqual(BUDGET);
    });
  });
});
