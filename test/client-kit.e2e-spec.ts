import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import {
  AuditEvent,
  DomainEvent,
  DomainEventAction,
  EVENTS_EXCHANGE,
  RegistryClient,
  RegistryClientOptions,
  UnpublishedAuditField,
  createRegistryClient,
} from '../kit';
import { PumpingRange } from '../src/delivery-signals/pumping-range.entity';
import { EVENTS_EXCHANGE as SERVICE_EVENTS_EXCHANGE, PUBLISHED_ACTIONS } from '../src/events/domain-events';
import CLIENT from './fixtures/client.json';
import SMS_CONFIG from './fixtures/sms-config.json';
import { assertAnswerMatchesContract, assertRequestMatchesContract } from './helpers/contract';
import { assertRefusalIsDescribed } from './helpers/document-validator';
import { deleteExchanges, uniqueExchangeName } from './helpers/rabbitmq';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp } from './helpers/test-app';

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
const SECRET_KEY = /^sk_[A-Za-z0-9_-]{43}$/;
const ADMIN_ACTOR = `admin:${createHash('sha256').update(ADMIN_API_KEY).digest('hex').slice(0, 8)}`;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of the committed openapi.json, as `METHOD /path/{template}`. */
function documentedOperations(): string[] {
  const document = JSON.parse(readFileSync(resolve(__dirname, '../openapi.json'), 'utf8')) as { paths: Record<string, object> };
  return Object.entries(document.paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => HTTP_METHODS.includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

/** The `results` of an answer that must be a 200; a refusal fails with its status and error. */
function resultsOf<T>(answer: { data?: { results: T }; error?: unknown; response: Response }): T {
  expect({ status: answer.response.status, error: answer.error }).toEqual({ status: 200, error: undefined });
  return answer.data!.results;
}

describe('The typed client kit (kit/), against the service on a port', () => {
  let t: TestApp;
  let baseUrl: string;
  const called = new Set<string>();
  const exchanges: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    await approveProviderHosts(t);
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await deleteExchanges(exchanges);
  });

  /** A kit client that records the operations it calls and checks every request and answer against openapi.json. */
  function kit(credentials: Omit<RegistryClientOptions, 'baseUrl'> = {}): RegistryClient {
    const client = createRegistryClient({ baseUrl, ...credentials });
    const payloads = new Map<string, string | undefined>();
    client.use({
      async onRequest({ request, schemaPath, id }) {
        called.add(`${request.method} ${schemaPath}`);
        payloads.set(id, request.body === null ? undefined : await request.clone().text());
      },
      async onResponse({ request, response, id }) {
        const { pathname: path, search } = new URL(request.url);
        const payload = payloads.get(id);
        assertRequestMatchesContract(request.method, path, payload, response.status);
        payloads.delete(id);
        const raw = await response.clone().text();
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          body = undefined;
        }
        const headers = Object.fromEntries(response.headers);
        assertAnswerMatchesContract(request.method, path, { status: response.status, headers, body, raw });
        await assertRefusalIsDescribed(
          { method: request.method, url: path + search, headers: Object.fromEntries(request.headers), payload },
          { status: response.status, body },
        );
      },
    });
    return client;
  }

  const admin = () => kit({ adminApiKey: ADMIN_API_KEY });

  /** A new client (the fixture under a unique name): its secret key and id. */
  async function addClient(): Promise<{ appName: string; secretKey: string; clientId: number }> {
    const appName = `kit-${Math.random().toString(36).slice(2)}`;
    const { secretKey } = resultsOf(await admin().POST('/api/client/add', { body: { ...CLIENT, appName } }));
    const page = resultsOf(await admin().GET('/api/v1/clients', { params: { query: { appName } } }));
    return { appName, secretKey, clientId: page.items[0].clientId };
  }

  it('should add a client with the admin key, and answer it to its own secret key and to the admin', async () => {
    const added = resultsOf(
      await admin().POST('/api/client/add', {
        body: { ...CLIENT, appName: 'kit-shown', appDescription: 'Sends invoices', preferredSmsGateway: 'twilio' },
      }),
    );
    expect(added).toEqual({
      appDescription: 'Sends invoices',
      appUrl: CLIENT.appUrl,
      secretKey: expect.stringMatching(SECRET_KEY),
      preferredSmsGateway: 'twilio',
      preferredEmailGateway: null,
      preferredPushNotificationGateway: null,
      isHost: false,
      smsConfig: null,
    });

    expect(resultsOf(await kit({ secretKey: added.secretKey }).POST('/api/client/get/secretKey', { body: {} }))).toEqual(added);
    // openapi.json does not require get-client's body, so neither does the kit.
    expect(resultsOf(await kit({ secretKey: added.secretKey }).POST('/api/client/get/secretKey'))).toEqual(added);

    const page = resultsOf(await admin().GET('/api/v1/clients', { params: { query: { appName: 'kit-shown', limit: 10 } } }));
    expect(page).toEqual({ items: [expect.objectContaining({ appName: 'kit-shown' })], nextCursor: null });
    const { clientId } = page.items[0];
    expect(resultsOf(await admin().GET('/api/v1/clients/{clientId}', { params: { path: { clientId } } }))).toMatchObject({
      clientId,
      appName: 'kit-shown',
      appDescription: 'Sends invoices',
      appUrl: CLIENT.appUrl,
      preferredSmsGateway: 'twilio',
      preferredEmailGateway: null,
      preferredPushNotificationGateway: null,
      isHost: false,
      isActive: true,
      smsConfigCount: 0,
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
    });
  });

  it('should update a client, rotate its key and delete it as an admin', async () => {
    const { secretKey, clientId } = await addClient();
    const path = { clientId };

    const updated = resultsOf(
      await admin().PATCH('/api/v1/clients/{clientId}', { params: { path }, body: { appUrl: 'https://new.example.com', isHost: true } }),
    );
    expect(updated).toMatchObject({ clientId, appUrl: 'https://new.example.com', isHost: true, isActive: true });

    const rotated = resultsOf(
      await admin().POST('/api/v1/clients/{clientId}/secret-key/rotate', { params: { path }, body: { graceSeconds: 0 } }),
    );
    expect(rotated).toEqual({ secretKey: expect.stringMatching(SECRET_KEY), previousKeyExpiresAt: null });
    const revoked = await kit({ secretKey }).POST('/api/client/get/secretKey', { body: {} });
    expect({ status: revoked.response.status, error: revoked.error }).toEqual({
      status: 404,
      error: { status: 404, error: 'No client matches the secretKey' },
    });
    expect(resultsOf(await kit({ secretKey: rotated.secretKey }).POST('/api/client/get/secretKey', { body: {} })).appUrl).toBe(
      'https://new.example.com',
    );

    expect(resultsOf(await admin().DELETE('/api/v1/clients/{clientId}', { params: { path } }))).toEqual({ clientId, deleted: true });
    const gone = await admin().GET('/api/v1/clients/{clientId}', { params: { path } });
    expect(gone.error).toEqual({ status: 404, error: 'Client not found' });
  });

  it('should let a client rotate its own key, the previous one working through the grace period', async () => {
    const { secretKey } = await addClient();
    const rotated = resultsOf(await kit({ secretKey }).POST('/api/v1/client/secret-key/rotate', { body: { graceSeconds: 60 } }));
    expect(rotated).toEqual({ secretKey: expect.stringMatching(SECRET_KEY), previousKeyExpiresAt: expect.stringMatching(ISO_UTC) });
    expect(Date.parse(rotated.previousKeyExpiresAt!) - Date.now()).toBeGreaterThan(55_000);
    for (const key of [secretKey, rotated.secretKey]) {
      expect(resultsOf(await kit({ secretKey: key }).POST('/api/client/get/secretKey', { body: {} })).secretKey).toBe(key);
    }
  });

  it('should make, list and delete scoped keys with the root key and with the admin key', async () => {
    const { secretKey, clientId } = await addClient();
    const path = { clientId };
    const own = resultsOf(await kit({ secretKey }).POST('/api/v1/client/keys', { body: { name: 'reader', scopes: ['client:read'] } }));
    expect(own).toMatchObject({ name: 'reader', scopes: ['client:read'], secretKey: expect.stringMatching(/^rk_[0-9A-Za-z]{46}$/) });
    expect(resultsOf(await kit({ secretKey: own.secretKey }).POST('/api/client/get/secretKey', { body: {} })).secretKey).toBe(
      own.secretKey,
    );
    const made = resultsOf(
      await admin().POST('/api/v1/clients/{clientId}/keys', { params: { path }, body: { name: 'writer', scopes: ['sms-config:write'] } }),
    );
    const listed = resultsOf(await kit({ secretKey }).GET('/api/v1/client/keys', {}));
    expect(listed.items.map((key) => key.keyId)).toEqual([own.keyId, made.keyId]);
    expect(resultsOf(await admin().GET('/api/v1/clients/{clientId}/keys', { params: { path } })).items).toHaveLength(2);
    expect(resultsOf(await kit({ secretKey }).DELETE('/api/v1/client/keys/{keyId}', { params: { path: { keyId: own.keyId } } }))).toEqual({
      keyId: own.keyId,
      deleted: true,
    });
    expect(
      resultsOf(await admin().DELETE('/api/v1/clients/{clientId}/keys/{keyId}', { params: { path: { clientId, keyId: made.keyId } } })),
    ).toEqual({ keyId: made.keyId, deleted: true });
  });

  it('should run an SMS configuration through add, list, read, update, a new token, resolution and deletion', async () => {
    const { secretKey, clientId } = await addClient();
    const owner = kit({ secretKey });
    const dispatcher = kit({ dispatcherApiKey: DISPATCHER_API_KEY });

    const { verifyApiKey } = resultsOf(await owner.POST('/api/sms-config/add', { body: SMS_CONFIG }));
    expect(verifyApiKey.length).toBeGreaterThanOrEqual(64);

    const { password: _password, apiKey: _apiKey, ...shown } = SMS_CONFIG;
    const listed = resultsOf(await owner.POST('/api/sms-config/get-all-by-client-id', { body: {} }));
    expect(listed).toEqual([{ ...shown, smsConfigId: expect.any(Number) }]);
    const path = { smsConfigId: listed[0].smsConfigId };
    // The v1 reads show what came after the seed's fields too; the seed's list does not.
    expect(resultsOf(await owner.GET('/api/v1/sms-configs/{smsConfigId}', { params: { path } }))).toMatchObject({
      ...listed[0],
      lowBalanceThreshold: null,
      destinationApproved: true,
      destinationPrices: null,
    });

    const destinationPrices = [{ prefix: '44', perSmsCost: 0.04 }];
    const updated = resultsOf(
      await owner.PATCH('/api/v1/sms-configs/{smsConfigId}', { params: { path }, body: { providerName: 'vonage', destinationPrices } }),
    );
    expect(updated).toMatchObject({
      ...listed[0],
      providerName: 'vonage',
      lowBalanceThreshold: null,
      destinationApproved: true,
      destinationPrices,
      verifyApiKey: expect.any(String),
    });

    const reissued = resultsOf(await owner.POST('/api/v1/sms-configs/{smsConfigId}/verify-api-key', { params: { path } }));
    expect(reissued.verifyApiKey).not.toBe(verifyApiKey);
    for (const token of [verifyApiKey, reissued.verifyApiKey]) {
      const resolved = await dispatcher.POST('/api/v1/sms-configs/resolve', { body: { verifyApiKey: token } });
      expect(resolved.response.headers.get('cache-control')).toBe('no-store');
      expect(resultsOf(resolved)).toMatchObject({
        ...SMS_CONFIG,
        providerName: 'vonage',
        smsConfigId: path.smsConfigId,
        clientId,
        lowBalanceThreshold: null,
        destinationApproved: true,
      });
    }

    expect(resultsOf(await owner.DELETE('/api/v1/sms-configs/{smsConfigId}', { params: { path } }))).toEqual({
      smsConfigId: path.smsConfigId,
      deleted: true,
    });
    expect(resultsOf(await owner.POST('/api/sms-config/get-all-by-client-id', { body: {} }))).toEqual([]);
  });

  it('should route a client’s messages with the dispatcher key and its secretKey together, and take a report', async () => {
    const { secretKey, clientId } = await addClient();
    await kit({ secretKey }).POST('/api/sms-config/add', { body: { ...SMS_CONFIG, balance: 1, perSmsCost: 0.25 } });
    const route = resultsOf(
      await kit({ dispatcherApiKey: DISPATCHER_API_KEY, secretKey }).POST('/api/v1/dispatch/route', { body: { count: 4 } }),
    );
    expect(route).toEqual({
      clientId,
      candidates: [expect.objectContaining({ providerName: 'twilio', balance: 1, perSmsCost: 0.25, verifyApiKey: expect.any(String) })],
      skipped: [],
    });
    const smsConfigId = route.candidates[0].smsConfigId;
    const outcome = await kit({ dispatcherApiKey: DISPATCHER_API_KEY }).POST('/api/v1/dispatch/outcomes', {
      body: { smsConfigId, sent: 4, failed: 0 },
    });
    expect(resultsOf(outcome)).toEqual({ smsConfigId, balance: 0, healthy: true, unhealthyUntil: null });
  });

  it('should approve, list and remove a provider host with the admin key', async () => {
    const approved = resultsOf(await admin().POST('/api/v1/provider-hosts', { body: { host: 'SMS.Kit-Provider.example.', note: 'kit' } }));
    expect(approved).toEqual({
      providerHostId: expect.any(Number),
      host: 'sms.kit-provider.example',
      note: 'kit',
      createdAt: expect.any(String),
    });
    const page = resultsOf(await admin().GET('/api/v1/provider-hosts', { params: { query: { limit: 200 } } }));
    expect(page.items).toContainEqual(approved);
    const path = { providerHostId: approved.providerHostId };
    expect(resultsOf(await admin().DELETE('/api/v1/provider-hosts/{providerHostId}', { params: { path } }))).toEqual({
      ...path,
      deleted: true,
    });
  });

  it('should list and lift a suspicion of SMS pumping with the admin key', async () => {
    await t.addClient({ appName: 'kit-pumping' });
    const [{ clientId }] = resultsOf(await admin().GET('/api/v1/clients', { params: { query: { appName: 'kit-pumping' } } })).items;
    // As a dispatch report that found a signal writes it.
    const { identifiers } = await t.dataSource.getRepository(PumpingRange).insert({
      clientId,
      range: '+44740012xxxx',
      signals: ['velocity'],
      sent: '40',
      codesSent: '0',
      verified: '0',
      suspectedAt: new Date(),
      until: new Date(Date.now() + 60 * 60_000),
    });
    const pumpingRangeId = identifiers[0].id as number;
    const standing = resultsOf(await admin().GET('/api/v1/pumping-ranges', { params: { query: { clientId, standing: 'true' } } }));
    expect(standing.items.map((item) => item.pumpingRangeId)).toEqual([pumpingRangeId]);
    const lifted = resultsOf(await admin().POST('/api/v1/pumping-ranges/{pumpingRangeId}/lift', { params: { path: { pumpingRangeId } } }));
    expect(lifted).toEqual({ ...standing.items[0], liftedAt: expect.stringMatching(ISO_UTC) });
  });

  it('should send each key in its own header: an admin key is refused where only a dispatcher key may go', async () => {
    const refused = await admin().POST('/api/v1/sms-configs/resolve', { body: { verifyApiKey: 'any' } });
    expect(refused.error).toEqual({ status: 403, error: 'x-api-key is an admin key; only a dispatcher key may resolve credentials' });
    const anonymous = await kit().POST('/api/client/get/secretKey', { body: {} });
    expect(anonymous.error).toEqual({ status: 401, error: 'secretKey header is required' });
    expect(() => createRegistryClient({ baseUrl, adminApiKey: ADMIN_API_KEY, dispatcherApiKey: DISPATCHER_API_KEY })).toThrow(
      'adminApiKey and dispatcherApiKey are both sent as x-api-key',
    );
  });

  it('should report readiness and metrics without a credential', async () => {
    let health = resultsOf(await kit().GET('/health'));
    // The broker connects in the background after start-up.
    for (let attempt = 0; health.broker !== 'up' && attempt < 100; attempt++) {
      await new Promise((done) => setTimeout(done, 100));
      health = resultsOf(await kit().GET('/health'));
    }
    expect(health).toEqual({ database: 'up', broker: 'up' });

    const metrics = await kit().GET('/metrics', { parseAs: 'text' });
    expect(metrics.response.status).toBe(200);
    expect(metrics.data).toContain('# TYPE http_requests_total counter');
  });

  it('should declare an exchange on RabbitMQ with the admin key', async () => {
    const name = uniqueExchangeName('kit');
    exchanges.push(name);
    const { data, response } = await admin().POST('/api/v1/rabbitmq/exchanges', { body: { name, type: 'topic' } });
    expect(response.status).toBe(200);
    expect(data).toEqual({ status: 200, message: `Exchange ${name} declared`, exchangeDetails: { name, type: 'topic' } });
  });

  it('should list the audit entries of a client, which event consumers receive as DomainEvent, without where they came from', async () => {
    const { secretKey, clientId } = await addClient();
    await kit({ secretKey }).POST('/api/sms-config/add', { body: SMS_CONFIG });
    const page = resultsOf(await admin().GET('/api/v1/audit-events', { params: { query: { clientId } } }));
    expect(page.nextCursor).toBeNull();
    const entries: AuditEvent[] = page.items;
    // The kit's requests, from this test's own address, with fetch's User-Agent.
    for (const entry of entries) expect(entry).toMatchObject({ sourceAddress: '127.0.0.1', userAgent: expect.any(String) });

    const asEvent = ({ sourceAddress: _address, userAgent: _agent, ...event }: AuditEvent): Omit<AuditEvent, UnpublishedAuditField> =>
      event;
    const isPublished = (event: Omit<AuditEvent, UnpublishedAuditField>): event is DomainEvent =>
      event.action !== 'sms-config.credentials-resolved';
    const events: DomainEvent[] = entries.map(asEvent).filter(isPublished);
    expect(events).toEqual([
      expect.objectContaining({ action: 'sms-config.created', actor: `client:${clientId}`, clientId, smsConfigId: expect.any(Number) }),
      {
        eventId: expect.any(String),
        occurredAt: expect.stringMatching(ISO_UTC),
        action: 'client.created',
        actor: ADMIN_ACTOR,
        clientId,
        smsConfigId: null,
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        callerRequestId: null,
        changed: [],
        details: null,
      },
    ]);
  });

  it('should name the exchange and the actions the service publishes', () => {
    expect(EVENTS_EXCHANGE).toBe(SERVICE_EVENTS_EXCHANGE);
    // A key missing from or foreign to DomainEventAction does not compile.
    const everyAction: Record<DomainEventAction, true> = {
      'client.created': true,
      'client.updated': true,
      'client.disabled': true,
      'client.enabled': true,
      'client.deleted': true,
      'client.key-created': true,
      'client.key-deleted': true,
      'client.secret-key.rotated': true,
      'client.daily-limit-reached': true,
      'client.pumping-suspected': true,
      'client.pumping-blocked': true,
      'client.pumping-lifted': true,
      'sms-config.created': true,
      'sms-config.updated': true,
      'sms-config.deleted': true,
      'sms-config.balance-low': true,
      'sms-config.balance-set': true,
      'sms-config.unhealthy': true,
      'sms-config.healthy': true,
      'exchange.declared': true,
      'provider-host.approved': true,
      'provider-host.removed': true,
    };
    expect(Object.keys(everyAction).sort()).toEqual([...PUBLISHED_ACTIONS].sort());
  });

  // Last: the tests above are what calls the operations.
  it('should have called every operation of openapi.json through the kit', () => {
    expect([...called].sort()).toEqual(documentedOperations());
  });
});
