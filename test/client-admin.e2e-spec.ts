import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ADMIN_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
/** The fields PATCH takes, in the order openapi.json lists them: its 400 for an empty body names each. */
const CHANGEABLE_FIELDS = Object.keys(
  (
    JSON.parse(readFileSync(resolve(__dirname, '../openapi.json'), 'utf8')) as {
      components: { schemas: Record<string, { properties: object }> };
    }
  ).components.schemas.UpdateClientDto.properties,
);
const ADMIN_ACTOR = `admin:${createHash('sha256').update(ADMIN_API_KEY).digest('hex').slice(0, 8)}`;
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** null, or a time as the API writes it (ISO-8601 UTC). */
const NULL_OR_ISO_UTC = {
  asymmetricMatch: (value: unknown) => value === null || (typeof value === 'string' && ISO_UTC.test(value)),
  toAsymmetricMatcher: () => 'null or ISO-8601 UTC',
};
/** The address of that last use, the test's own, once written. */
const NULL_OR_LOOPBACK = {
  asymmetricMatch: (value: unknown) => value === null || value === '127.0.0.1',
  toAsymmetricMatcher: () => 'null or 127.0.0.1',
};

/** Query strings whose limit is refused: out of range, or not written as plain decimal digits. */
const BAD_LIMITS = ['0', '201', 'abc', '1.5', '0x10', '1e2', '%2B5', '%205', '5%20', '-1', '', '1&limit=2'].map(
  (limit) => `limit=${limit}`,
);

/** A cursor in canonical base64url over `after:<text>`: what a caller who decoded one could write. */
const cursorOf = (text: string): string => Buffer.from(`after:${text}`).toString('base64url');
/** after:3 ('YWZ0ZXI6Mw') in spellings the base64url decoder reads as the same bytes, and numbers Number() reads as 3. */
const FORGED_CURSORS = [
  'YWZ0ZXI6Mw==',
  'YWZ0ZXI6M+',
  'YWZ0ZXI6M/',
  'YWZ0ZXI6M-',
  cursorOf('03'),
  cursorOf('+3'),
  cursorOf(' 3'),
  cursorOf('3.0'),
];
/** Other spellings of an issued cursor's bytes: padded, and with a trailing character the decoder ignores. */
const otherSpellingsOf = (cursor: string): string[] => [`${cursor}=`, `${cursor}==`, `${cursor}A`];

describe('Client administration (/api/v1/clients)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());
  beforeEach(async () => t.reset());

  /** Adds a client and answers its key and id. */
  async function addClient(overrides: Record<string, unknown> = {}): Promise<{ secretKey: string; clientId: number }> {
    const appName = (overrides.appName as string) ?? `app-${Math.random().toString(36).slice(2)}`;
    const secretKey = await t.addClient({ ...overrides, appName });
    const listed = await t.get(`/api/v1/clients?appName=${encodeURIComponent(appName)}&limit=200`, ADMIN);
    return { secretKey, clientId: listed.body.results.items.at(-1).clientId };
  }

  const getClient = (secretKey: string) => t.post('/api/client/get/secretKey', { headers: { secretKey } });

  describe('conventions (ids, pagination)', () => {
    it('should answer 400 naming the parameter for an id that is not a positive integer', async () => {
      for (const id of ['0', '-1', 'abc', '1.5', '01', '2147483648', '99999999999']) {
        const answer = await t.get(`/api/v1/clients/${id}`, ADMIN);
        expect({ id, status: answer.status, body: answer.body }).toEqual({
          id,
          status: 400,
          body: { status: 400, error: 'clientId must be a positive integer' },
        });
      }
    });

    it('should answer 404 for an id no client has', async () => {
      const answer = await t.get('/api/v1/clients/2147483647', ADMIN);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ status: 404, error: 'Client not found' });
    });

    it('should page by clientId ascending with an opaque cursor, 50 by default, stable under inserts', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await addClient({ appName: `page-${i}` })).clientId);
      const first = await t.get('/api/v1/clients?limit=2', ADMIN);
      expect(first.status).toBe(200);
      expect(first.body.results.items.map((client: { clientId: number }) => client.clientId)).toEqual(ids.slice(0, 2));
      expect(typeof first.body.results.nextCursor).toBe('string');
      // A client added between two pages comes at the end, and nothing is repeated or skipped.
      const late = await addClient({ appName: 'page-late' });
      const second = await t.get(`/api/v1/clients?limit=2&cursor=${first.body.results.nextCursor}`, ADMIN);
      expect(second.body.results.items.map((client: { clientId: number }) => client.clientId)).toEqual(ids.slice(2, 4));
      const third = await t.get(`/api/v1/clients?limit=2&cursor=${second.body.results.nextCursor}`, ADMIN);
      expect(third.body.results.items.map((client: { clientId: number }) => client.clientId)).toEqual([ids[4], late.clientId]);
      expect(third.body.results.nextCursor).toBeNull();
      const all = await t.get('/api/v1/clients', ADMIN);
      expect(all.body.results).toEqual({ items: expect.any(Array), nextCursor: null });
      expect(all.body.results.items).toHaveLength(6);
    });

    it('should give 50 clients by default and refuse a limit outside 1–200 or a cursor it did not issue', async () => {
      for (let i = 0; i < 51; i++) await t.addClient({ appName: `many-${i}` });
      expect((await t.get('/api/v1/clients', ADMIN)).body.results.items).toHaveLength(50);
      expect((await t.get('/api/v1/clients?limit=200', ADMIN)).body.results.items).toHaveLength(51);
      for (const query of BAD_LIMITS) {
        const answer = await t.get(`/api/v1/clients?${query}`, ADMIN);
        expect({ query, body: answer.body }).toEqual({ query, body: { status: 400, error: 'limit must be an integer from 1 to 200' } });
      }
      const forged = await t.get('/api/v1/clients?cursor=bm90LWEtY3Vyc29y', ADMIN);
      expect(forged.body).toEqual({ status: 400, error: 'cursor is not valid' });
      expect((await t.get('/api/v1/clients?unknown=1', ADMIN)).body).toEqual({ status: 400, error: 'property unknown should not exist' });
    });

    it('should accept a cursor only as the service spelled it', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await addClient({ appName: `spelled-${i}` })).clientId);
      const { nextCursor } = (await t.get('/api/v1/clients?limit=1', ADMIN)).body.results;
      const second = await t.get(`/api/v1/clients?limit=1&cursor=${nextCursor}`, ADMIN);
      expect(second.body.results.items.map((client: { clientId: number }) => client.clientId)).toEqual([ids[1]]);

      for (const cursor of [...otherSpellingsOf(nextCursor), ...FORGED_CURSORS]) {
        const answer = await t.get(`/api/v1/clients?cursor=${encodeURIComponent(cursor)}`, ADMIN);
        expect({ cursor, body: answer.body }).toEqual({ cursor, body: { status: 400, error: 'cursor is not valid' } });
      }
      const twice = await t.get(`/api/v1/clients?cursor=${nextCursor}&cursor=${nextCursor}`, ADMIN);
      expect(twice.body).toEqual({ status: 400, error: 'cursor is not valid' });
    });

    it('should filter by appName prefix, case-insensitively, taking % and _ literally', async () => {
      await addClient({ appName: 'Billing EU' });
      await addClient({ appName: 'billing US' });
      await addClient({ appName: 'Shipping' });
      await addClient({ appName: '50%_off' });
      await addClient({ appName: '500 off' });
      const names = async (prefix: string) =>
        (await t.get(`/api/v1/clients?appName=${encodeURIComponent(prefix)}`, ADMIN)).body.results.items.map(
          (client: { appName: string }) => client.appName,
        );
      expect(await names('billing')).toEqual(['Billing EU', 'billing US']);
      expect(await names('50%')).toEqual(['50%_off']);
      expect(await names('5')).toEqual(['50%_off', '500 off']);
      expect(await names('nobody')).toEqual([]);
    });

    it('should refuse every admin route without the admin key, and with a client key', async () => {
      const { secretKey, clientId } = await addClient();
      const routes: Array<['GET' | 'PATCH' | 'DELETE' | 'POST', string, unknown]> = [
        ['GET', '/api/v1/clients', undefined],
        ['GET', `/api/v1/clients/${clientId}`, undefined],
        ['PATCH', `/api/v1/clients/${clientId}`, { appName: 'x' }],
        ['DELETE', `/api/v1/clients/${clientId}`, undefined],
        ['POST', `/api/v1/clients/${clientId}/secret-key/rotate`, {}],
        ['GET', '/api/v1/audit-events', undefined],
      ];
      for (const [method, url, body] of routes) {
        expect((await t.send(method, url, { body })).body).toEqual({ status: 401, error: 'x-api-key header is required' });
        expect((await t.send(method, url, { body, headers: { 'x-api-key': secretKey } })).body).toEqual({
          status: 401,
          error: 'x-api-key is not valid',
        });
      }
      expect((await getClient(secretKey)).status).toBe(200);
    });
  });

  describe('reading', () => {
    it('should show a client as an admin sees it, never a key or a digest', async () => {
      const { secretKey, clientId } = await addClient({
        appName: 'Shown',
        appDescription: 'd',
        preferredSmsGateway: 'twilio',
        isHost: true,
      });
      await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() });
      const answer = await t.get(`/api/v1/clients/${clientId}`, ADMIN);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        status: 200,
        results: {
          clientId,
          appName: 'Shown',
          appDescription: 'd',
          appUrl: 'https://billing.example.com',
          preferredSmsGateway: 'twilio',
          preferredEmailGateway: null,
          preferredPushNotificationGateway: null,
          isHost: true,
          isActive: true,
          smsConfigCount: 1,
          createdAt: expect.stringMatching(ISO_UTC),
          updatedAt: expect.stringMatching(ISO_UTC),
          secretKeyRotatedAt: null,
          // Its key was just used: written at the next flush (KEY_USAGE_FLUSH_MS), which may have come already.
          secretKeyLastUsedAt: NULL_OR_ISO_UTC,
          secretKeyLastUsedFrom: NULL_OR_LOOPBACK,
          previousSecretKeyLastUsedAt: null,
          previousSecretKeyLastUsedFrom: null,
          previousKeyExpiresAt: null,
          allowedDestinations: null,
          dailySpendLimit: null,
          dailySmsLimit: null,
          spentToday: 0,
          sentToday: 0,
          pumpingGuard: 'monitor',
          allowPremiumNumbers: false,
        },
      });
      expect(Math.abs(Date.parse(answer.body.results.createdAt) - Date.now())).toBeLessThan(60_000);
      expect(answer.raw).not.toContain(secretKey);
      expect(answer.raw).not.toContain(createHash('sha256').update(secretKey).digest('hex'));
    });
  });

  describe('PATCH', () => {
    it('should change the fields sent, clear optional ones with null, and show it in get-client at once', async () => {
      const { secretKey, clientId } = await addClient({ appDescription: 'old', preferredSmsGateway: 'twilio' });
      expect((await getClient(secretKey)).body.results.appDescription).toBe('old');
      const answer = await t.send('PATCH', `/api/v1/clients/${clientId}`, {
        headers: ADMIN,
        body: {
          appUrl: 'https://new.example.com',
          appDescription: null,
          preferredEmailGateway: 'ses',
          preferredPushNotificationGateway: 'fcm',
          isHost: true,
        },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.results).toMatchObject({
        clientId,
        appUrl: 'https://new.example.com',
        appDescription: null,
        preferredSmsGateway: 'twilio',
        preferredEmailGateway: 'ses',
        preferredPushNotificationGateway: 'fcm',
        isHost: true,
        isActive: true,
      });
      expect(Date.parse(answer.body.results.updatedAt)).toBeGreaterThanOrEqual(Date.parse(answer.body.results.createdAt));
      expect((await getClient(secretKey)).body.results).toEqual({
        appDescription: null,
        appUrl: 'https://new.example.com',
        secretKey,
        preferredSmsGateway: 'twilio',
        preferredEmailGateway: 'ses',
        preferredPushNotificationGateway: 'fcm',
        isHost: true,
        smsConfig: null,
      });
    });

    it('should refuse an empty body, an unknown field, null for a required field and values breaking the add rules', async () => {
      const { clientId } = await addClient();
      const patch = (body: unknown) => t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body });
      expect((await patch({})).body).toEqual({
        status: 400,
        error: `request body must set at least one of ${CHANGEABLE_FIELDS.join(', ')}`,
      });
      expect((await patch({ secretKey: 'sk_x' })).body).toEqual({ status: 400, error: 'property secretKey should not exist' });
      expect((await patch({ appName: null })).body.error).toMatch(/^appName must be a string/);
      expect((await patch({ appName: '' })).status).toBe(400);
      expect((await patch({ appUrl: 'ftp://x' })).body.error).toMatch(/appUrl/);
      expect((await patch({ isHost: 'true' })).body).toEqual({ status: 400, error: 'isHost must be a boolean value' });
      expect((await patch({ isActive: null })).body).toEqual({ status: 400, error: 'isActive must be a boolean value' });
      expect((await patch({ preferredEmailGateway: 'x'.repeat(101) })).status).toBe(400);
      const missing = await t.send('PATCH', '/api/v1/clients/2147483647', { headers: ADMIN, body: { appName: 'x' } });
      expect(missing.body).toEqual({ status: 404, error: 'Client not found' });
    });

    it('should disable a client: its keys get 403 Client is disabled on every secretKey route, and enabling restores them', async () => {
      const { secretKey, clientId } = await addClient();
      const added = await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() });
      expect((await getClient(secretKey)).status).toBe(200); // cached now
      const disabled = await t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: false } });
      expect(disabled.body.results.isActive).toBe(false);
      const refused = { status: 403, error: 'Client is disabled' };
      expect((await getClient(secretKey)).body).toEqual(refused);
      expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).body).toEqual(refused);
      expect((await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body).toEqual(refused);
      expect((await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey } })).body).toEqual(refused);
      expect((await t.get('/api/v1/sms-configs/1', { secretKey })).body).toEqual(refused);
      expect(added.status).toBe(200);
      expect((await t.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results.isActive).toBe(false);

      await t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: true } });
      expect((await getClient(secretKey)).status).toBe(200);
    });

    it('should record client.updated with the names of the fields changed, and client.disabled / client.enabled apart', async () => {
      const { clientId } = await addClient({ appDescription: 'same' });
      const patched = await t.send('PATCH', `/api/v1/clients/${clientId}`, {
        headers: { ...ADMIN, 'x-request-id': 'req-patch-1' },
        body: { appDescription: 'same', appName: 'renamed', isActive: false },
      });
      await t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: true } });
      const events = (await t.get(`/api/v1/audit-events?clientId=${clientId}`, ADMIN)).body.results.items;
      expect(events.map((event: { action: string; changed: string[] }) => [event.action, event.changed])).toEqual([
        ['client.enabled', ['isActive']],
        ['client.disabled', ['isActive']],
        ['client.updated', ['appName']],
        ['client.created', []],
      ]);
      expect(events[2]).toEqual({
        eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        occurredAt: expect.stringMatching(ISO_UTC),
        action: 'client.updated',
        actor: ADMIN_ACTOR,
        clientId,
        smsConfigId: null,
        requestId: patched.headers['x-request-id'],
        callerRequestId: 'req-patch-1',
        changed: ['appName'],
        details: null,
        sourceAddress: '127.0.0.1',
        userAgent: 'lightMyRequest',
      });
      expect(patched.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(events[0]).toMatchObject({ requestId: expect.stringMatching(/^[0-9a-f-]{36}$/), callerRequestId: null });
    });

    it("should keep the service's request id in requestId and the caller's x-request-id beside it, never a key-like one", async () => {
      const { clientId } = await addClient();
      const keyLike = 'sk_' + 'A1b2C3d4'.repeat(6);
      const sent: Array<[string | undefined, string | null]> = [
        ['abc-123', 'abc-123'],
        [undefined, null],
        [keyLike, null],
        ['not a token', null],
      ];
      const requestIds: string[] = [];
      for (const [given, _] of sent) {
        const answer = await t.send('PATCH', `/api/v1/clients/${clientId}`, {
          headers: given === undefined ? ADMIN : { ...ADMIN, 'x-request-id': given },
          body: { appName: `renamed-${requestIds.length}` },
        });
        expect(answer.status).toBe(200);
        expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        requestIds.push(answer.headers['x-request-id'] as string);
      }
      const events = (await t.get(`/api/v1/audit-events?clientId=${clientId}&action=client.updated`, ADMIN)).body.results.items;
      expect(
        events.reverse().map((event: { requestId: string; callerRequestId: string | null }) => [event.requestId, event.callerRequestId]),
      ).toEqual(sent.map(([, kept], index) => [requestIds[index], kept]));
    });
  });

  describe('DELETE', () => {
    it('should remove the client and its configurations; its keys become unknown everywhere', async () => {
      const { secretKey, clientId } = await addClient();
      await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() });
      expect((await getClient(secretKey)).status).toBe(200); // cached now
      const answer = await t.send('DELETE', `/api/v1/clients/${clientId}`, { headers: ADMIN });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 200, results: { clientId, deleted: true } });
      expect((await getClient(secretKey)).body).toEqual({ status: 404, error: 'No client matches the secretKey' });
      expect((await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body).toEqual({
        status: 401,
        error: 'secretKey is not valid',
      });
      expect(await t.dataSource.query('SELECT id FROM sms_config WHERE client_id = ?', [clientId])).toEqual([]);
      expect((await t.get(`/api/v1/clients/${clientId}`, ADMIN)).status).toBe(404);
      expect((await t.send('DELETE', `/api/v1/clients/${clientId}`, { headers: ADMIN })).body).toEqual({
        status: 404,
        error: 'Client not found',
      });
      const [deleted] = (await t.get(`/api/v1/audit-events?clientId=${clientId}&action=client.deleted`, ADMIN)).body.results.items;
      expect(deleted).toMatchObject({ action: 'client.deleted', actor: ADMIN_ACTOR, clientId, smsConfigId: null });
    });
  });

  describe('audit log', () => {
    it('should list entries newest first, filter by action, and refuse an unknown action', async () => {
      await addClient();
      await addClient();
      const created = (await t.get('/api/v1/audit-events?action=client.created&limit=1', ADMIN)).body.results;
      expect(created.items).toHaveLength(1);
      const next = (await t.get(`/api/v1/audit-events?action=client.created&limit=1&cursor=${created.nextCursor}`, ADMIN)).body.results;
      expect(next.items[0].clientId).toBeLessThan(created.items[0].clientId);
      expect(next.nextCursor).toBeNull();
      expect((await t.get('/api/v1/audit-events?action=client.nope', ADMIN)).status).toBe(400);
      for (const clientId of ['0', '0x10', '1e2', '+5', '%205', '2147483648', 'one']) {
        const answer = await t.get(`/api/v1/audit-events?clientId=${clientId}`, ADMIN);
        expect({ clientId, body: answer.body }).toEqual({ clientId, body: { status: 400, error: 'clientId must be a positive integer' } });
      }
    });

    it('should refuse a limit that is not plain digits from 1 to 200, and a cursor not as the service spelled it', async () => {
      await addClient();
      await addClient();
      const { nextCursor } = (await t.get('/api/v1/audit-events?limit=1', ADMIN)).body.results;
      expect((await t.get(`/api/v1/audit-events?limit=1&cursor=${nextCursor}`, ADMIN)).body.results.items).toHaveLength(1);

      for (const query of BAD_LIMITS) {
        const answer = await t.get(`/api/v1/audit-events?${query}`, ADMIN);
        expect({ query, body: answer.body }).toEqual({ query, body: { status: 400, error: 'limit must be an integer from 1 to 200' } });
      }
      for (const cursor of [...otherSpellingsOf(nextCursor), ...FORGED_CURSORS]) {
        const answer = await t.get(`/api/v1/audit-events?cursor=${encodeURIComponent(cursor)}`, ADMIN);
        expect({ cursor, body: answer.body }).toEqual({ cursor, body: { status: 400, error: 'cursor is not valid' } });
      }
    });

    it('should record exchange.declared without a client', async () => {
      const answer = await t.post('/api/v1/rabbitmq/exchanges', { headers: ADMIN, body: { name: 'audit.test.exchange', type: 'topic' } });
      expect(answer.status).toBe(200);
      const [entry] = (await t.get('/api/v1/audit-events?action=exchange.declared', ADMIN)).body.results.items;
      expect(entry).toMatchObject({
        action: 'exchange.declared',
        actor: ADMIN_ACTOR,
        clientId: null,
        smsConfigId: null,
        changed: ['name', 'type'],
      });
    });

    it('should write no entry for a declaration the broker refused', async () => {
      const declare = (type: string) =>
        t.post('/api/v1/rabbitmq/exchanges', { headers: ADMIN, body: { name: 'audit.refused.exchange', type } });
      const declared = async () =>
        (await t.get('/api/v1/audit-events?action=exchange.declared', ADMIN)).body.results.items.length as number;
      expect((await declare('topic')).status).toBe(200);
      expect(await declared()).toBe(1);
      expect((await declare('fanout')).status).toBe(409);
      expect(await declared()).toBe(1);
    });

    it('should write no entry for a change that failed', async () => {
      const { clientId } = await addClient();
      expect((await t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { appName: '' } })).status).toBe(400);
      const actions = (await t.get(`/api/v1/audit-events?clientId=${clientId}`, ADMIN)).body.results.items.map(
        (event: { action: string }) => event.action,
      );
      expect(actions).toEqual(['client.created']);
    });
  });
});
