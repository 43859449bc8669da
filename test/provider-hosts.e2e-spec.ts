import { sha256Hex } from '../src/auth/digest';
import { ProviderHostApproval } from '../src/provider-host/provider-host-approval';
import { EventConsumer } from './helpers/event-consumer';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const ADMIN_ACTOR = `admin:${sha256Hex(ADMIN_API_KEY).slice(0, 8)}`;
const FORMS =
  'host must be a DNS name (api.provider.com), *. and a DNS name (*.provider.com) or an IP address, without scheme, port or path';
const PRIVATE = 'host must not name a private, loopback or link-local host (set ALLOW_PRIVATE_PROVIDER_HOSTS=true to allow)';
const NOT_APPROVED = { status: 409, error: "the SMS configuration's destination is not approved" };
/** The diversion of the security review: a cheap "preferred" configuration to the thief's host, added with the secretKey alone. */
const THIEF = { providerName: 'TWILIO', smsApi: 'https://sms-intercept.evil.example.net/send', perSmsCost: 0, balance: 999999999999 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Empties the list behind the service's back, and has each instance read it again. */
async function clearProviderHosts(...apps: TestApp[]): Promise<void> {
  await apps[0].dataSource.query('DELETE FROM provider_host');
  for (const app of apps) {
    const approval = app.app.get(ProviderHostApproval);
    approval.changed();
    await approval.current();
  }
}

describe('Approved provider hosts', () => {
  let a: TestApp;
  let b: TestApp;
  let events: EventConsumer;

  beforeAll(async () => {
    const databaseUrl = await testDatabaseUrl();
    a = await startTestApp({ DATABASE_URL: databaseUrl });
    b = await startTestApp({ DATABASE_URL: databaseUrl }, { keepData: true });
    // Two instances on one SQLite file may both publish an entry, with its message-id (docs/events.md).
    events = await EventConsumer.bind('provider-host.*', undefined, { repeatsDropped: process.env.TEST_DATABASE === 'sqlite' });
  });
  afterAll(async () => {
    await events.close();
    await b.close();
    await a.close();
  });
  beforeEach(async () => {
    await a.reset();
    await clearProviderHosts(a, b);
  });

  const approve = (host: unknown, note?: unknown, app = a) =>
    app.post('/api/v1/provider-hosts', { headers: ADMIN, body: note === undefined ? { host } : { host, note } });
  const remove = (providerHostId: number, app = a) => app.send('DELETE', `/api/v1/provider-hosts/${providerHostId}`, { headers: ADMIN });
  const routeOn = (app: TestApp, secretKey: string) => app.post('/api/v1/dispatch/route', { headers: { ...DISPATCHER, secretKey } });
  const resolveOn = (app: TestApp, verifyApiKey: string) =>
    app.post('/api/v1/sms-configs/resolve', { headers: DISPATCHER, body: { verifyApiKey } });

  /** A client with one configuration per override, their ids and tokens in order. */
  async function clientWith(...configs: Array<Record<string, unknown>>) {
    const secretKey = await a.addClient({ appName: `hosts-${Math.random().toString(36).slice(2)}` });
    const tokens: string[] = [];
    for (const config of configs) {
      const added = await a.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig(config) });
      expect(added.status).toBe(200);
      tokens.push(added.body.results.verifyApiKey as string);
    }
    const list = (await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results as Array<{
      smsConfigId: number;
    }>;
    return { secretKey, ids: list.map((config) => config.smsConfigId), tokens };
  }

  describe('the admin routes', () => {
    it('should take only an admin x-api-key: none, a dispatcher key or a secretKey are refused with 401', async () => {
      const secretKey = await a.addClient();
      for (const headers of [{}, DISPATCHER, { secretKey }] as Array<Record<string, string>>) {
        const expected = 'x-api-key' in headers ? 'x-api-key is not valid' : 'x-api-key header is required';
        for (const answer of [
          await a.get('/api/v1/provider-hosts', headers),
          await a.post('/api/v1/provider-hosts', { headers, body: { host: 'api.provider.com' } }),
          await a.send('DELETE', '/api/v1/provider-hosts/1', { headers }),
        ]) {
          expect(answer.body).toEqual({ status: 401, error: expected });
        }
      }
      expect((await a.get('/api/v1/provider-hosts', ADMIN)).body).toEqual({ status: 200, results: { items: [], nextCursor: null } });
    });

    it.each([
      ['api.provider.com', 'api.provider.com'],
      ['API.Provider.COM', 'api.provider.com'],
      ['api.provider.com.', 'api.provider.com'],
      ['bücher.example', 'xn--bcher-kva.example'],
      ['*.provider.com', '*.provider.com'],
      ['*.Provider.com.', '*.provider.com'],
      ['*.foo.github.io', '*.foo.github.io'],
      ['8.8.8.8', '8.8.8.8'],
      ['134744072', '8.8.8.8'],
      ['2606:4700:4700::1111', '2606:4700:4700::1111'],
      ['2606:4700:4700:0:0:0:0:1111', '2606:4700:4700::1111'],
      [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
    ])('should approve %j as %j', async (host, stored) => {
      const answer = await approve(host, 'contract 2026-114');
      expect(answer.body).toEqual({
        status: 200,
        results: { providerHostId: expect.any(Number), host: stored, note: 'contract 2026-114', createdAt: expect.any(String) },
      });
      expect(Date.parse(answer.body.results.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    });

    it.each([
      ['https://api.provider.com', FORMS],
      ['api.provider.com:443', FORMS],
      ['api.provider.com/send', FORMS],
      ['api provider.com', FORMS],
      [' api.provider.com', FORMS],
      ['user@api.provider.com', FORMS],
      ['api.provider.com\\', FORMS],
      ['*', FORMS],
      ['*.', FORMS],
      ['provider', FORMS],
      ['localhost', FORMS],
      ['a..provider.com', FORMS],
      ['exa_mple.com', FORMS],
      [`${'a'.repeat(64)}.com`, FORMS],
      [`${'abcdefgh.'.repeat(28)}com`, FORMS],
      ['provider.123', FORMS],
      ['[2606:4700:4700::1111]', FORMS],
      ['*.8.8.8.8', FORMS],
      ['*.*.provider.com', FORMS],
      ['*.com', "host must not be a wildcard over a public suffix (*.com): approve the provider's own names"],
      ['*.co.uk', "host must not be a wildcard over a public suffix (*.co.uk): approve the provider's own names"],
      ['*.amazonaws.com', "host must not be a wildcard over a public suffix (*.amazonaws.com): approve the provider's own names"],
      ['*.github.io', "host must not be a wildcard over a public suffix (*.github.io): approve the provider's own names"],
      ['10.0.0.1', PRIVATE],
      ['169.254.169.254', PRIVATE],
      ['0x7f.1', PRIVATE],
      ['::1', PRIVATE],
      ['::ffff:10.0.0.1', PRIVATE],
      ['sms.localhost', PRIVATE],
    ])('should refuse %j with 400: %s', async (host, error) => {
      expect((await approve(host)).body).toEqual({ status: 400, error });
    });

    it('should refuse a missing host, a non-string one and a note over 200 characters, naming the field', async () => {
      expect((await a.post('/api/v1/provider-hosts', { headers: ADMIN, body: {} })).body).toMatchObject({ status: 400 });
      expect((await approve(7)).body).toEqual({ status: 400, error: 'host must be a string' });
      expect((await approve('api.provider.com', 'n'.repeat(201))).body.error).toMatch(/^note /);
      expect((await a.get('/api/v1/provider-hosts', ADMIN)).body.results.items).toEqual([]);
    });

    it('should answer 409 for a host already listed, in any spelling', async () => {
      expect((await approve('api.provider.com')).status).toBe(200);
      for (const spelling of ['api.provider.com', 'API.PROVIDER.COM', 'api.provider.com.']) {
        expect((await approve(spelling)).body).toEqual({ status: 409, error: 'host api.provider.com is already approved' });
      }
      expect((await approve('*.provider.com')).status).toBe(200);
      expect((await approve('*.PROVIDER.com.')).body).toEqual({ status: 409, error: 'host *.provider.com is already approved' });
    });

    it('should list by id in pages, and remove a host (404 for an unknown one)', async () => {
      const ids: number[] = [];
      for (const host of ['a.provider.com', 'b.provider.com', 'c.provider.com'])
        ids.push((await approve(host)).body.results.providerHostId);
      const first = (await a.get('/api/v1/provider-hosts?limit=2', ADMIN)).body.results;
      expect(first.items.map((item: { host: string }) => item.host)).toEqual(['a.provider.com', 'b.provider.com']);
      const second = (await a.get(`/api/v1/provider-hosts?limit=2&cursor=${first.nextCursor}`, ADMIN)).body.results;
      expect(second).toEqual({
        items: [expect.objectContaining({ providerHostId: ids[2], host: 'c.provider.com', note: null })],
        nextCursor: null,
      });
      expect((await remove(ids[1])).body).toEqual({ status: 200, results: { providerHostId: ids[1], deleted: true } });
      expect((await remove(ids[1])).body).toEqual({ status: 404, error: 'Provider host not found' });
      expect((await a.send('DELETE', '/api/v1/provider-hosts/0', { headers: ADMIN })).status).toBe(400);
      const left = (await a.get('/api/v1/provider-hosts', ADMIN)).body.results.items.map((item: { host: string }) => item.host);
      expect(left).toEqual(['a.provider.com', 'c.provider.com']);
    });

    it('should audit approve and remove with clientId null, and publish both', async () => {
      const approved = (await approve('audit.provider.com', 'why')).body.results;
      await remove(approved.providerHostId);
      const entries = (await a.get('/api/v1/audit-events?action=provider-host.approved', ADMIN)).body.results.items;
      const details = { host: 'audit.provider.com' };
      expect(entries).toEqual([
        expect.objectContaining({ actor: ADMIN_ACTOR, clientId: null, smsConfigId: null, changed: ['host', 'note'], details }),
      ]);
      const removed = (await a.get('/api/v1/audit-events?action=provider-host.removed', ADMIN)).body.results.items;
      expect(removed).toEqual([
        expect.objectContaining({ actor: ADMIN_ACTOR, clientId: null, smsConfigId: null, changed: ['host'], details }),
      ]);
      const published = await events.waitFor((body) => [entries[0].eventId, removed[0].eventId].includes(body.eventId), 2);
      // At least once: a duplicate carries the same eventId.
      const actions = new Map(published.map((event) => [event.body.eventId as string, event.body.action as string]));
      expect([...actions.values()].sort()).toEqual(['provider-host.approved', 'provider-host.removed']);
      expect(published.map((event) => event.body.details)).toEqual(published.map(() => details));
    });
  });

  describe('what approval changes', () => {
    it('should skip an unapproved configuration as unapproved (after inactive), refuse it on resolve, and offer it once approved', async () => {
      const { secretKey, ids, tokens } = await clientWith({}, { isActive: false });
      expect((await routeOn(b, secretKey)).body.results).toMatchObject({
        candidates: [],
        skipped: [
          { smsConfigId: ids[0], reason: 'unapproved' },
          { smsConfigId: ids[1], reason: 'inactive' },
        ],
      });
      expect((await resolveOn(b, tokens[0])).body).toEqual(NOT_APPROVED);
      // The fixture sends to twilio.com and api.twilio.com: both must be approved. The instance that approves applies it at once.
      const exact = (await approve('api.twilio.com')).body.results;
      expect((await routeOn(a, secretKey)).body.results.skipped[0]).toEqual({ smsConfigId: ids[0], reason: 'unapproved' });
      const apex = (await approve('twilio.com')).body.results;
      const routed = (await routeOn(a, secretKey)).body.results;
      expect(routed.candidates.map((c: { smsConfigId: number }) => c.smsConfigId)).toEqual([ids[0]]);
      expect((await resolveOn(a, tokens[0])).status).toBe(200);
      // Outcome reports are taken whatever the approval.
      await remove(exact.providerHostId);
      await remove(apex.providerHostId);
      expect((await routeOn(a, secretKey)).body.results.skipped[0]).toEqual({ smsConfigId: ids[0], reason: 'unapproved' });
      expect((await resolveOn(a, tokens[0])).body).toEqual(NOT_APPROVED);
      const report = await b.post('/api/v1/dispatch/outcomes', { headers: DISPATCHER, body: { smsConfigId: ids[0], sent: 1, failed: 0 } });
      expect(report.status).toBe(200);
    });

    it('should match a wildcard to names under it, not to the name itself, and never to an IP address', async () => {
      const urls = { providerUrl: null, balanceUrl: null };
      const { secretKey, ids } = await clientWith(
        { ...urls, smsApi: 'https://sub.x.example.com/send' },
        { ...urls, smsApi: 'https://deep.sub.x.example.com/send' },
        { ...urls, smsApi: 'https://x.example.com/send' },
        { ...urls, smsApi: 'https://8.8.8.8/send' },
        { ...urls, smsApi: 'https://evilx.example.com/send' },
      );
      // Stored by an earlier release: the trailing dot is not part of the host approval judges.
      await a.dataSource.query('UPDATE sms_config SET sms_api = ? WHERE id = ?', ['https://deep.sub.x.example.com./send', ids[1]]);
      await approve('*.x.example.com');
      expect((await approve('*.8.8.8')).status).toBe(400);
      const routed = (await routeOn(a, secretKey)).body.results;
      expect(routed.candidates.map((c: { smsConfigId: number }) => c.smsConfigId).sort((x: number, y: number) => x - y)).toEqual([
        ids[0],
        ids[1],
      ]);
      expect(routed.skipped).toEqual([
        { smsConfigId: ids[2], reason: 'unapproved' },
        { smsConfigId: ids[3], reason: 'unapproved' },
        { smsConfigId: ids[4], reason: 'unapproved' },
      ]);
      await approve('8.8.8.8');
      expect((await routeOn(a, secretKey)).body.results.skipped.map((s: { smsConfigId: number }) => s.smsConfigId)).toEqual([
        ids[2],
        ids[4],
      ]);
    });

    it('should judge every URL of a configuration, each with its trailing dot removed, and never a URL holding a backslash', async () => {
      await approve('*.example.com');
      const { secretKey, ids } = await clientWith(
        { smsApi: 'https://sms.example.com/send', providerUrl: 'https://www.example.com', balanceUrl: null },
        { smsApi: 'https://sms.example.com/send', providerUrl: 'https://other.example.org', balanceUrl: null },
        { smsApi: 'https://sms.example.com/send', providerUrl: null, balanceUrl: 'https://balance.example.org/b' },
      );
      // Stored before the URL rule refused it: the service reads sms.example.com, other parsers 169.254.169.254.
      await a.dataSource.query('UPDATE sms_config SET provider_url = ? WHERE id = ?', [
        'http://sms.example.com\\@169.254.169.254/',
        ids[0],
      ]);
      const skipped = (await routeOn(a, secretKey)).body.results.skipped;
      expect(skipped).toEqual(ids.map((smsConfigId) => ({ smsConfigId, reason: 'unapproved' })));
      await a.dataSource.query('UPDATE sms_config SET sms_api = ?, provider_url = ? WHERE id = ?', [
        'https://sms.example.com./send',
        'https://www.example.com.',
        ids[0],
      ]);
      expect((await routeOn(a, secretKey)).body.results.candidates.map((c: { smsConfigId: number }) => c.smsConfigId)).toEqual([ids[0]]);
    });

    it('should show destinationApproved on the v1 reads only: get-client and the seed list keep their bytes', async () => {
      const { secretKey, ids } = await clientWith({});
      const getClient = async () => (await a.post('/api/client/get/secretKey', { headers: { secretKey } })).raw;
      const list = async () => (await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).raw;
      const [clientBefore, listBefore] = [await getClient(), await list()];
      expect((await a.get(`/api/v1/sms-configs/${ids[0]}`, { secretKey })).body.results.destinationApproved).toBe(false);
      await approve('twilio.com');
      await approve('*.twilio.com');
      expect((await a.get(`/api/v1/sms-configs/${ids[0]}`, { secretKey })).body.results.destinationApproved).toBe(true);
      const patched = await a.send('PATCH', `/api/v1/sms-configs/${ids[0]}`, { headers: { secretKey }, body: { senderId: 'X' } });
      expect(patched.body.results.destinationApproved).toBe(true);
      expect(clientBefore).not.toContain('destinationApproved');
      expect(listBefore).not.toContain('destinationApproved');
      expect(await getClient()).toBe(clientBefore.replace('"senderId":"ACME"', '"senderId":"X"'));
      expect(await list()).toBe(listBefore.replace('"senderId":"ACME"', '"senderId":"X"'));
    });

    it('should never offer the diversion a stolen secretKey adds, nor resolve it, while the real configuration keeps being offered', async () => {
      await approve('twilio.com');
      await approve('*.twilio.com');
      await sleep(200);
      const { secretKey, ids } = await clientWith({});
      const added = await a.post('/api/sms-config/add', { headers: { secretKey }, body: THIEF });
      expect(added.status).toBe(200);
      const list = (await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
      const thiefId = list[list.length - 1].smsConfigId as number;
      const routed = (await routeOn(b, secretKey)).body.results;
      expect(routed.candidates.map((c: { smsConfigId: number }) => c.smsConfigId)).toEqual([ids[0]]);
      expect(routed.skipped).toEqual([{ smsConfigId: thiefId, reason: 'unapproved' }]);
      expect(JSON.stringify(routed)).not.toContain('evil.example.net');
      expect((await resolveOn(b, added.body.results.verifyApiKey)).body).toEqual(NOT_APPROVED);
      // Switching the real one off leaves nothing to send through, never the thief's host.
      await a.send('PATCH', `/api/v1/sms-configs/${ids[0]}`, { headers: { secretKey }, body: { isActive: false } });
      expect((await routeOn(b, secretKey)).body.results.candidates).toEqual([]);
    });

    it('should apply an approval made on one instance to route on the other within 1 s', async () => {
      const { secretKey, ids } = await clientWith({ smsApi: 'https://one.example.com/send', providerUrl: null, balanceUrl: null });
      expect((await routeOn(b, secretKey)).body.results.skipped).toEqual([{ smsConfigId: ids[0], reason: 'unapproved' }]);
      const approvedAt = Date.now();
      const host = (await approve('one.example.com')).body.results;
      while ((await routeOn(b, secretKey)).body.results.candidates.length === 0) {
        expect(Date.now() - approvedAt).toBeLessThan(1000);
        await sleep(10);
      }
      await remove(host.providerHostId, b);
      const removedAt = Date.now();
      while ((await routeOn(a, secretKey)).body.results.candidates.length === 1) {
        expect(Date.now() - removedAt).toBeLessThan(1000);
        await sleep(10);
      }
    });
  });
});

describe('Approved provider hosts with no broker', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    // Nothing listens there: neither instance hears the other, each reads the list again when it is older than 800 ms.
    const env = { DATABASE_URL: await testDatabaseUrl(), AMQP_URL: 'amqp://guest:guest@127.0.0.1:1' };
    a = await startTestApp(env);
    b = await startTestApp(env, { keepData: true });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('should apply an approval made on one instance to route and resolve on the other within 1 s', async () => {
    await clearProviderHosts(a, b);
    const secretKey = await a.addClient();
    const added = await a.post('/api/sms-config/add', {
      headers: { secretKey },
      body: validSmsConfig({ smsApi: 'https://unheard.example.com/send', providerUrl: null, balanceUrl: null }),
    });
    const route = () => b.post('/api/v1/dispatch/route', { headers: { ...DISPATCHER, secretKey } });
    expect((await route()).body.results.candidates).toEqual([]);
    const approvedAt = Date.now();
    expect((await a.post('/api/v1/provider-hosts', { headers: ADMIN, body: { host: 'unheard.example.com' } })).status).toBe(200);
    while ((await route()).body.results.candidates.length === 0) {
      expect(Date.now() - approvedAt).toBeLessThan(1000);
      await sleep(20);
    }
    const resolved = await b.post('/api/v1/sms-configs/resolve', {
      headers: DISPATCHER,
      body: { verifyApiKey: added.body.results.verifyApiKey },
    });
    expect(resolved.status).toBe(200);
  });
});
