import { SMS_CONFIG_SUMMARY_FIELDS } from './helpers/interface';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const PREFIX_RULE = 'must be a string of 1 to 7 digits (an E.164 prefix without +)';
const COST_RULE = 'must be a number >= 0 and < 1000000000000 with at most 6 decimal places';
const DESTINATION_RULE = 'destination must be + and then 7 to 15 digits (E.164)';

/** `count` entries of distinct 7-digit prefixes from `first`, each at 0.01. */
const pricesFrom = (first: number, count: number) =>
  Array.from({ length: count }, (_, index) => ({ prefix: String(first + index), perSmsCost: 0.01 }));

describe('Prices per destination', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await approveProviderHosts(t);
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  async function newClient(overrides: Record<string, unknown> = {}) {
    const appName = `prices-${Math.random().toString(36).slice(2)}`;
    const secretKey = await t.addClient({ appName, ...overrides });
    const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    return { secretKey, clientId };
  }

  const add = (secretKey: string, fields: Record<string, unknown> = {}) =>
    t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig(fields) });

  /** Adds a configuration and answers its id. */
  async function addConfig(secretKey: string, fields: Record<string, unknown> = {}): Promise<number> {
    const added = await add(secretKey, fields);
    expect(added.status).toBe(200);
    const list = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
    return list[list.length - 1].smsConfigId as number;
  }

  const patch = (secretKey: string, smsConfigId: number, body: unknown) =>
    t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, { headers: { secretKey }, body });
  const view = async (secretKey: string, smsConfigId: number) => (await t.get(`/api/v1/sms-configs/${smsConfigId}`, { secretKey })).body;
  const route = (secretKey: string, body?: unknown) => t.post('/api/v1/dispatch/route', { headers: { ...DISPATCHER, secretKey }, body });
  const report = (body: unknown) => t.post('/api/v1/dispatch/outcomes', { headers: DISPATCHER, body });
  const priced = (answer: { body: any }) =>
    answer.body.results.candidates.map((candidate: { smsConfigId: number; perSmsCost: number; pricePrefix?: string | null }) => [
      candidate.smsConfigId,
      candidate.perSmsCost,
      candidate.pricePrefix,
    ]);

  describe('on a configuration', () => {
    it('should keep the entries given on add and show them in the v1 read in their order, exactly', async () => {
      const { secretKey } = await newClient();
      const destinationPrices = [
        { prefix: '4477', perSmsCost: 0.000001 },
        { prefix: '44', perSmsCost: 0.0425 },
        { prefix: '1', perSmsCost: 999999999999.999 },
        { prefix: '447', perSmsCost: 0 },
      ];
      const smsConfigId = await addConfig(secretKey, { destinationPrices });
      const viewed = await view(secretKey, smsConfigId);
      expect(viewed).toMatchObject({
        status: 200,
        results: {
          smsConfigId,
          providerName: 'twilio',
          providerUrl: 'https://twilio.com',
          username: 'acme',
          senderId: 'ACME',
          smsType: 'Transactional',
          smsApi: 'https://api.twilio.com/send',
          balanceUrl: 'https://api.twilio.com/balance',
          balance: 12.5,
          perSmsCost: 0.0125,
          isActive: true,
          lowBalanceThreshold: null,
          destinationApproved: true,
        },
      });
      expect(viewed.results.destinationPrices).toEqual(destinationPrices);
      expect((await view(secretKey, await addConfig(secretKey))).results.destinationPrices).toBeNull();
      // [] is none, as null is.
      expect((await view(secretKey, await addConfig(secretKey, { destinationPrices: [] }))).results.destinationPrices).toBeNull();
    });

    it('should replace them on PATCH, answer them, clear them with null or [], and audit the change by name', async () => {
      const { secretKey, clientId } = await newClient();
      const smsConfigId = await addConfig(secretKey, { destinationPrices: [{ prefix: '44', perSmsCost: 0.04 }] });

      const replaced = await patch(secretKey, smsConfigId, {
        destinationPrices: [
          { prefix: '33', perSmsCost: 0.07 },
          { prefix: '44', perSmsCost: 0.05 },
        ],
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body.results.destinationPrices).toEqual([
        { prefix: '33', perSmsCost: 0.07 },
        { prefix: '44', perSmsCost: 0.05 },
      ]);
      expect(Object.keys(replaced.body.results).slice(-3)).toEqual(['destinationApproved', 'destinationPrices', 'verifyApiKey']);
      expect((await view(secretKey, smsConfigId)).results.destinationPrices).toEqual(replaced.body.results.destinationPrices);

      // Another field alone leaves them.
      expect((await patch(secretKey, smsConfigId, { senderId: 'NEW' })).body.results.destinationPrices).toHaveLength(2);

      const cleared = await patch(secretKey, smsConfigId, { destinationPrices: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.results.destinationPrices).toBeNull();
      expect((await patch(secretKey, smsConfigId, { destinationPrices: [{ prefix: '1', perSmsCost: 0.01 }] })).status).toBe(200);
      expect((await patch(secretKey, smsConfigId, { destinationPrices: [] })).body.results.destinationPrices).toBeNull();

      const updates = (await t.get(`/api/v1/audit-events?clientId=${clientId}&action=sms-config.updated`, ADMIN)).body.results.items;
      expect(updates.map((entry: { changed: string[] }) => entry.changed)).toEqual(
        expect.arrayContaining([['destinationPrices'], ['senderId']]),
      );
      expect(updates.filter((entry: { changed: string[] }) => entry.changed.includes('destinationPrices'))).toHaveLength(4);
    });

    it("should never show them in the seed's answers: get-client and the list keep their bytes", async () => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey);
      const getClient = () => t.post('/api/client/get/secretKey', { headers: { secretKey } });
      const list = () => t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } });
      const [clientBefore, listBefore] = [(await getClient()).raw, (await list()).raw];
      expect(Object.keys(JSON.parse(clientBefore).results.smsConfig[0]).sort()).toEqual(SMS_CONFIG_SUMMARY_FIELDS);

      expect((await patch(secretKey, smsConfigId, { destinationPrices: pricesFrom(4400000, 300) })).status).toBe(200);
      expect((await add(secretKey, { destinationPrices: [{ prefix: '44', perSmsCost: 1 }] })).status).toBe(200);
      const clientAfter = JSON.parse((await getClient()).raw);
      const listAfter = JSON.parse((await list()).raw);
      expect(
        JSON.stringify({ ...clientAfter, results: { ...clientAfter.results, smsConfig: clientAfter.results.smsConfig.slice(0, 1) } }),
      ).toBe(clientBefore);
      expect(JSON.stringify({ ...listAfter, results: listAfter.results.slice(0, 1) })).toBe(listBefore);
      expect(JSON.stringify(clientAfter)).not.toContain('destinationPrices');
      expect(JSON.stringify(listAfter)).not.toContain('destinationPrices');

      const resolved = await t.post('/api/v1/sms-configs/resolve', {
        headers: DISPATCHER,
        body: {
          verifyApiKey: (await t.post(`/api/v1/sms-configs/${smsConfigId}/verify-api-key`, { headers: { secretKey } })).body.results
            .verifyApiKey,
        },
      });
      expect(resolved.status).toBe(200);
      expect(resolved.body.results).not.toHaveProperty('destinationPrices');
    });

    it.each<[string, unknown, string]>([
      ['an object', { prefix: '44', perSmsCost: 1 }, 'destinationPrices must be an array of {prefix, perSmsCost}, or null'],
      ['301 entries', pricesFrom(4400000, 301), 'destinationPrices must have at most 300 entries'],
      ['an entry that is not an object', ['44'], 'destinationPrices[0] must be an object {prefix, perSmsCost}'],
      ['a prefix with +', [{ prefix: '+44', perSmsCost: 1 }], `destinationPrices[0].prefix ${PREFIX_RULE}`],
      [
        'a prefix of 8 digits',
        [
          { prefix: '1', perSmsCost: 1 },
          { prefix: '44770090', perSmsCost: 1 },
        ],
        `destinationPrices[1].prefix ${PREFIX_RULE}`,
      ],
      ['a prefix as a number', [{ prefix: 44, perSmsCost: 1 }], `destinationPrices[0].prefix ${PREFIX_RULE}`],
      ['a price of 7 decimal places', [{ prefix: '44', perSmsCost: 0.0000001 }], `destinationPrices[0].perSmsCost ${COST_RULE}`],
      ['a negative price', [{ prefix: '44', perSmsCost: -0.01 }], `destinationPrices[0].perSmsCost ${COST_RULE}`],
      ['a price of 10^12', [{ prefix: '44', perSmsCost: 1e12 }], `destinationPrices[0].perSmsCost ${COST_RULE}`],
      ['a missing price', [{ prefix: '44' }], `destinationPrices[0].perSmsCost ${COST_RULE}`],
      ['an unknown field', [{ prefix: '44', perSmsCost: 1, country: 'GB' }], 'property destinationPrices[0].country should not exist'],
      [
        'a prefix twice',
        [
          { prefix: '44', perSmsCost: 1 },
          { prefix: '447', perSmsCost: 1 },
          { prefix: '44', perSmsCost: 2 },
        ],
        'destinationPrices has prefix 44 more than once',
      ],
    ])('should refuse %s with 400 naming it, on add and on PATCH, and change nothing', async (_label, destinationPrices, error) => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey, { destinationPrices: [{ prefix: '49', perSmsCost: 0.1 }] });
      expect((await add(secretKey, { destinationPrices })).body).toEqual({ status: 400, error });
      expect((await patch(secretKey, smsConfigId, { destinationPrices })).body).toEqual({ status: 400, error });
      expect((await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results).toHaveLength(1);
      expect((await view(secretKey, smsConfigId)).results.destinationPrices).toEqual([{ prefix: '49', perSmsCost: 0.1 }]);
    });

    it("should refuse the 3,001st entry over all of a client's configurations with 409, on add and on PATCH, other clients aside", async () => {
      const { secretKey } = await newClient();
      const ids: number[] = [];
      for (let index = 0; index < 10; index += 1)
        ids.push(await addConfig(secretKey, { destinationPrices: pricesFrom(1000000 + index * 1000, 300) }));
      const limit = (others: number, sent: number) => ({
        status: 409,
        error: `A client's SMS configurations can have at most 3000 destination prices in all (${others} on its other configurations, ${sent} sent)`,
      });

      expect((await add(secretKey, { destinationPrices: [{ prefix: '44', perSmsCost: 1 }] })).body).toEqual(limit(3000, 1));
      const eleventh = await addConfig(secretKey);
      expect((await patch(secretKey, eleventh, { destinationPrices: [{ prefix: '44', perSmsCost: 1 }] })).body).toEqual(limit(3000, 1));
      // A configuration's own entries are replaced, not added to.
      expect((await patch(secretKey, ids[0], { destinationPrices: pricesFrom(2000000, 300) })).status).toBe(200);
      expect((await patch(secretKey, ids[0], { destinationPrices: pricesFrom(2000000, 299) })).status).toBe(200);
      expect((await patch(secretKey, eleventh, { destinationPrices: pricesFrom(3000000, 2) })).body).toEqual(limit(2999, 2));
      expect((await patch(secretKey, eleventh, { destinationPrices: [{ prefix: '44', perSmsCost: 1 }] })).status).toBe(200);
      expect((await view(secretKey, eleventh)).results.destinationPrices).toEqual([{ prefix: '44', perSmsCost: 1 }]);
      // Deleting a configuration frees its entries.
      expect((await t.send('DELETE', `/api/v1/sms-configs/${ids[1]}`, { headers: { secretKey } })).status).toBe(200);
      expect((await add(secretKey, { destinationPrices: pricesFrom(4000000, 300) })).status).toBe(200);

      const other = await newClient();
      expect((await add(other.secretKey, { destinationPrices: pricesFrom(1000000, 300) })).status).toBe(200);
    });

    it('should let only one of two concurrent writes take the last entries', async () => {
      const { secretKey } = await newClient();
      for (let index = 0; index < 9; index += 1) await addConfig(secretKey, { destinationPrices: pricesFrom(1000000 + index * 1000, 300) });
      const first = await addConfig(secretKey, { destinationPrices: pricesFrom(5000000, 290) });
      const second = await addConfig(secretKey);
      const answers = await Promise.all([
        patch(secretKey, second, { destinationPrices: pricesFrom(6000000, 10) }),
        add(secretKey, { destinationPrices: pricesFrom(7000000, 10) }),
        patch(secretKey, first, { destinationPrices: pricesFrom(5000000, 300) }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
      const listed = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
      const counts = await Promise.all(
        listed.map(
          async ({ smsConfigId }: { smsConfigId: number }) => (await view(secretKey, smsConfigId)).results.destinationPrices?.length ?? 0,
        ),
      );
      expect(counts.reduce((total: number, count: number) => total + count, 0)).toBe(3000);
    });
  });

  describe('on route', () => {
    it('should price each configuration at its longest matching prefix, else perSmsCost, and order by that price', async () => {
      const { secretKey } = await newClient();
      const graded = await addConfig(secretKey, {
        perSmsCost: 0.05,
        destinationPrices: [
          { prefix: '44', perSmsCost: 0.04 },
          { prefix: '447', perSmsCost: 0.02 },
          { prefix: '4477', perSmsCost: 0.001 },
        ],
      });
      const flat = await addConfig(secretKey, { perSmsCost: 0.03, destinationPrices: [{ prefix: '33', perSmsCost: 0.001 }] });
      const none = await addConfig(secretKey, { perSmsCost: 0.035 });

      expect(priced(await route(secretKey, { destination: '+447712345678' }))).toEqual([
        [graded, 0.001, '4477'],
        [flat, 0.03, null],
        [none, 0.035, null],
      ]);
      expect(priced(await route(secretKey, { destination: '+447612345678' }))).toEqual([
        [graded, 0.02, '447'],
        [flat, 0.03, null],
        [none, 0.035, null],
      ]);
      expect(priced(await route(secretKey, { destination: '+441234567' }))).toEqual([
        [flat, 0.03, null],
        [none, 0.035, null],
        [graded, 0.04, '44'],
      ]);
      expect(priced(await route(secretKey, { destination: '+33612345678' }))).toEqual([
        [flat, 0.001, '33'],
        [none, 0.035, null],
        [graded, 0.05, null],
      ]);
      expect(priced(await route(secretKey, { destination: '+12025550123' }))).toEqual([
        [flat, 0.03, null],
        [none, 0.035, null],
        [graded, 0.05, null],
      ]);
      // A prefix is a start of the digits, not any part of them.
      expect(priced(await route(secretKey, { destination: '+14477000000' }))[2]).toEqual([graded, 0.05, null]);
    });

    it('should show a candidate with exactly its fields and pricePrefix after perSmsCost, and keep the preferred gateway first', async () => {
      const { secretKey, clientId } = await newClient({ preferredSmsGateway: 'costly' });
      const preferred = await addConfig(secretKey, { providerName: 'costly', perSmsCost: 0.9 });
      const cheap = await addConfig(secretKey, {
        providerName: 'cheap',
        perSmsCost: 0.5,
        destinationPrices: [{ prefix: '49', perSmsCost: 0.1 }],
      });

      const answer = await route(secretKey, { destination: '+4915112345678', smsType: 'Transactional', count: 2 });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        status: 200,
        results: {
          clientId,
          candidates: [
            {
              smsConfigId: preferred,
              providerName: 'costly',
              smsApi: 'https://api.twilio.com/send',
              senderId: 'ACME',
              smsType: 'Transactional',
              balance: 12.5,
              perSmsCost: 0.9,
              pricePrefix: null,
              deliveryRate: null,
              verifyApiKey: expect.stringMatching(/^[A-Za-z0-9_-]{64,}$/),
            },
            {
              smsConfigId: cheap,
              providerName: 'cheap',
              smsApi: 'https://api.twilio.com/send',
              senderId: 'ACME',
              smsType: 'Transactional',
              balance: 12.5,
              perSmsCost: 0.1,
              pricePrefix: '49',
              deliveryRate: null,
              verifyApiKey: expect.stringMatching(/^[A-Za-z0-9_-]{64,}$/),
            },
          ],
          skipped: [],
        },
      });
      expect(Object.keys(answer.body.results.candidates[1])).toEqual([
        'smsConfigId',
        'providerName',
        'smsApi',
        'senderId',
        'smsType',
        'balance',
        'perSmsCost',
        'pricePrefix',
        'deliveryRate',
        'verifyApiKey',
      ]);
    });

    it('should answer without a destination exactly as before prices were set, with no pricePrefix', async () => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey, { perSmsCost: 0.02 });
      await addConfig(secretKey, { perSmsCost: 0.01, balance: 0.005 });
      const withoutTokens = (raw: string) => raw.replace(/"verifyApiKey":"[^"]+"/g, '"verifyApiKey":"…"');
      const before = withoutTokens((await route(secretKey)).raw);
      expect(before).not.toContain('pricePrefix');

      expect((await patch(secretKey, smsConfigId, { destinationPrices: [{ prefix: '1', perSmsCost: 0.000001 }] })).status).toBe(200);
      expect(withoutTokens((await route(secretKey)).raw)).toBe(before);
      expect(withoutTokens((await route(secretKey, {})).raw)).toBe(before);
      expect(withoutTokens((await route(secretKey, { count: 1 })).raw)).toBe(before);
    });

    it("should check the balance at the destination's price × count", async () => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey, {
        balance: 1,
        perSmsCost: 0.01,
        destinationPrices: [{ prefix: '44', perSmsCost: 0.5 }],
      });
      const outcome = async (body: Record<string, unknown>) => {
        const { candidates, skipped } = (await route(secretKey, body)).body.results;
        return [candidates.map((c: { smsConfigId: number }) => c.smsConfigId), skipped];
      };

      expect(await outcome({ destination: '+447700900123', count: 2 })).toEqual([[smsConfigId], []]);
      expect(await outcome({ destination: '+447700900123', count: 3 })).toEqual([[], [{ smsConfigId, reason: 'balance' }]]);
      // Elsewhere, at perSmsCost: 100 messages are exactly covered.
      expect(await outcome({ destination: '+33612345678', count: 100 })).toEqual([[smsConfigId], []]);
      expect(await outcome({ destination: '+33612345678', count: 101 })).toEqual([[], [{ smsConfigId, reason: 'balance' }]]);
      expect(await outcome({ count: 100 })).toEqual([[smsConfigId], []]);
    });

    it.each<[string, unknown]>([
      ['without +', '447700900123'],
      ['of 6 digits', '+123456'],
      ['of 16 digits', '+1234567890123456'],
      ['with spaces', '+44 7700 900123'],
      ['as a number', 447700900123],
      ['empty', ''],
    ])('should refuse a destination %s with 400 naming it, on route and on outcomes', async (_label, destination) => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey);
      expect((await route(secretKey, { destination })).body).toEqual({ status: 400, error: DESTINATION_RULE });
      expect((await report({ smsConfigId, sent: 1, failed: 0, destination })).body).toEqual({ status: 400, error: DESTINATION_RULE });
      expect((await view(secretKey, smsConfigId)).results.balance).toBe(12.5);
    });
  });

  describe('on outcomes', () => {
    it('should debit exactly sent × the price at the destination, by the longest prefix, else perSmsCost', async () => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey, {
        balance: 100000000000,
        perSmsCost: 0.01,
        destinationPrices: [
          { prefix: '44', perSmsCost: 0.5 },
          { prefix: '4477', perSmsCost: 0.000001 },
        ],
      });
      // The digits as written: a double could not tell these balances apart.
      const balanceIn = (raw: string) => /"balance":([^,]+),/.exec(raw)?.[1];
      const debit = async (sent: number, destination?: string) => {
        const answer = await report({ smsConfigId, sent, failed: 0, ...(destination === undefined ? {} : { destination }) });
        expect(answer.status).toBe(200);
        return balanceIn(answer.raw);
      };

      expect(await debit(1, '+447700900123')).toBe('99999999999.999999');
      expect(await debit(9, '+447700900123')).toBe('99999999999.99999');
      expect(await debit(3, '+447600900123')).toBe('99999999998.49999');
      expect(await debit(1, '+33612345678')).toBe('99999999998.48999');
      expect(await debit(1)).toBe('99999999998.47999');
      // As stored, on SQLite too.
      expect(balanceIn((await t.get(`/api/v1/sms-configs/${smsConfigId}`, { secretKey })).raw)).toBe('99999999998.47999');
    });

    it('should set a balance given by the provider whatever the destination', async () => {
      const { secretKey } = await newClient();
      const smsConfigId = await addConfig(secretKey, { destinationPrices: [{ prefix: '44', perSmsCost: 0.5 }] });
      const answer = await report({ smsConfigId, sent: 4, failed: 0, balance: 3.25, destination: '+447700900123' });
      expect(answer.body.results).toEqual({ smsConfigId, balance: 3.25, healthy: true, unhealthyUntil: null });
    });
  });
});
