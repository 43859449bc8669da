import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { EVENTS_EXCHANGE } from '../src/events/domain-events';
import { EventConsumer, ReceivedEvent } from './helpers/event-consumer';
import { deleteExchanges, uniqueExchangeName } from './helpers/rabbitmq';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Longer than the relay's poll (1 s): what has not arrived after it will not. */
const SETTLE_MS = 2500;

describe('Domain events (transactional outbox on RabbitMQ)', () => {
  let t: TestApp;
  let consumer: EventConsumer;
  const exchanges: string[] = [];

  beforeAll(async () => {
    consumer = await EventConsumer.bind('#');
    t = await startTestApp();
    await approveProviderHosts(t);
  });
  afterAll(async () => {
    await t.close();
    await consumer.close();
    if (exchanges.length > 0) await deleteExchanges(exchanges);
  });
  beforeEach(async () => t.reset());

  /**
   * Every request of a test carries an x-request-id of this test's, kept in its events as callerRequestId, so its events
   * are told from other suites'. Dots keep it from looking like a key (such an id is dropped, see src/common/request-id.ts).
   */
  function tagged() {
    const tag = `ev.${randomBytes(6).toString('hex')}.`;
    let sequence = 0;
    return {
      tag,
      headers: (headers: Record<string, string> = {}) => ({ ...headers, 'x-request-id': `${tag}${++sequence}` }),
      mine: (body: { callerRequestId?: string | null }) => typeof body.callerRequestId === 'string' && body.callerRequestId.startsWith(tag),
    };
  }

  async function auditEntries(query = ''): Promise<any[]> {
    const answer = await t.get(`/api/v1/audit-events?limit=200${query}`, ADMIN);
    expect(answer.status).toBe(200);
    return [...answer.body.results.items].reverse();
  }

  const clientIdOf = async (appName: string): Promise<number> =>
    (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId;

  it('should publish every change exactly once, with its audit entry as body and the promised properties, and no secret', async () => {
    const { tag, headers, mine } = tagged();
    const appName = `events-${randomUUID()}`;
    const added = await t.post('/api/client/add', {
      headers: headers(ADMIN),
      body: { appName, appUrl: 'https://e.example.com', isHost: false },
    });
    expect(added.status).toBe(200);
    const firstKey: string = added.body.results.secretKey;
    const clientId = await clientIdOf(appName);
    const patch = (body: unknown) => t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: headers(ADMIN), body });
    expect((await patch({ appDescription: 'described' })).status).toBe(200);
    expect((await patch({ isActive: false })).status).toBe(200);
    expect((await patch({ isActive: true })).status).toBe(200);
    const rotate = () => t.post('/api/v1/client/secret-key/rotate', { headers: headers({ secretKey: firstKey, 'idempotency-key': tag }) });
    const rotated = await rotate();
    expect(rotated.status).toBe(200);
    // A replay of the answer holding the new key is audited, and not published.
    expect((await rotate()).raw).toBe(rotated.raw);
    const secondKey: string = rotated.body.results.secretKey;
    const config = validSmsConfig();
    const smsAdded = await t.post('/api/sms-config/add', { headers: headers({ secretKey: secondKey }), body: config });
    expect(smsAdded.status).toBe(200);
    const [{ smsConfigId }] = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: secondKey } })).body.results;
    const smsPatched = await t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, {
      headers: headers({ secretKey: secondKey }),
      body: { password: 'patched-password-7f3a', apiKey: 'patched-api-key-9c2e' },
    });
    expect(smsPatched.status).toBe(200);
    const resolved = await t.post('/api/v1/sms-configs/resolve', {
      headers: headers(DISPATCHER),
      body: { verifyApiKey: smsPatched.body.results.verifyApiKey },
    });
    expect(resolved.status).toBe(200);
    expect((await t.send('DELETE', `/api/v1/sms-configs/${smsConfigId}`, { headers: headers({ secretKey: secondKey }) })).status).toBe(200);
    const makeKey = (name: string) =>
      t.post('/api/v1/client/keys', { headers: headers({ secretKey: secondKey }), body: { name, scopes: ['client:read'] } });
    const madeKey = await makeKey('made and deleted');
    const keyDeleted = await t.send('DELETE', `/api/v1/client/keys/${madeKey.body.results.keyId}`, {
      headers: headers({ secretKey: secondKey }),
    });
    const keptKey = await makeKey('deleted by the rotation');
    expect([madeKey.status, keyDeleted.status, keptKey.status]).toEqual([200, 200, 200]);
    const adminRotated = await t.post(`/api/v1/clients/${clientId}/secret-key/rotate`, {
      headers: headers(ADMIN),
      body: { deleteScopedKeys: true },
    });
    expect(adminRotated.status).toBe(200);
    expect((await t.send('DELETE', `/api/v1/clients/${clientId}`, { headers: headers(ADMIN) })).status).toBe(200);
    const exchange = uniqueExchangeName('events');
    exchanges.push(exchange);
    expect((await t.post('/api/v1/rabbitmq/exchanges', { headers: headers(ADMIN), body: { name: exchange, type: 'topic' } })).status).toBe(
      200,
    );

    const entries = (await auditEntries()).filter(mine);
    expect(entries.map((entry) => entry.action)).toEqual([
      'client.created',
      'client.updated',
      'client.disabled',
      'client.enabled',
      'client.secret-key.rotated',
      'client.secret-key.replayed',
      'sms-config.created',
      'sms-config.updated',
      'sms-config.credentials-resolved',
      'sms-config.deleted',
      'client.key-created',
      'client.key-deleted',
      'client.key-created',
      'client.secret-key.rotated',
      'client.key-deleted',
      'client.deleted',
      'exchange.declared',
    ]);
    // The service's own id of the request (its answer's x-request-id), and the caller's beside it.
    expect(entries[0]).toMatchObject({ requestId: added.headers['x-request-id'], callerRequestId: `${tag}1` });
    expect(added.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const published = entries.filter((entry) => !['sms-config.credentials-resolved', 'client.secret-key.replayed'].includes(entry.action));
    await consumer.waitFor(mine, published.length);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const events = consumer.matching(mine);

    // An event is its audit entry without where the request came from, which stays in the audit log.
    expect(published.every((entry) => entry.sourceAddress === '127.0.0.1' && entry.userAgent === 'lightMyRequest')).toBe(true);
    const publishedBodies = published.map(({ sourceAddress: _address, userAgent: _agent, ...body }) => body);
    expect(events.map((event) => event.body)).toEqual(publishedBodies);
    for (const [index, event] of events.entries()) {
      const entry = publishedBodies[index];
      expect(event).toMatchObject<Partial<ReceivedEvent>>({
        exchange: EVENTS_EXCHANGE,
        routingKey: entry.action,
        properties: { contentType: 'application/json', deliveryMode: 2, messageId: entry.eventId },
        raw: JSON.stringify(entry),
      });
    }
    const secrets = [
      firstKey,
      secondKey,
      adminRotated.body.results.secretKey,
      ADMIN_API_KEY,
      DISPATCHER_API_KEY,
      config.password,
      config.apiKey,
      'patched-password-7f3a',
      'patched-api-key-9c2e',
      smsAdded.body.results.verifyApiKey,
      smsPatched.body.results.verifyApiKey,
      madeKey.body.results.secretKey,
      keptKey.body.results.secretKey,
    ];
    const everything = events.map((event) => event.raw).join('\n');
    for (const secret of [...secrets, ...secrets.map(sha256)]) expect(everything).not.toContain(secret);

    // Stored: published entries are marked with the time, the resolution was never to be published.
    const rows: Array<{ action: string; unpublished: number; publishedAt: unknown }> = await t.dataSource.query(
      'SELECT action, unpublished, published_at AS publishedAt FROM audit_event ORDER BY id',
    );
    expect(rows.map(({ unpublished }) => Number(unpublished))).toEqual(rows.map(() => 0));
    expect(rows.filter(({ publishedAt }) => publishedAt === null).map(({ action }) => action)).toEqual([
      'client.secret-key.replayed',
      'sms-config.credentials-resolved',
    ]);
  });

  it('should deliver each client’s events in the order its changes were made, with clients changed side by side', async () => {
    const { headers, mine } = tagged();
    const CLIENTS = 6;
    const CHANGES = 8;
    const clientIds = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, index) => {
        const appName = `order-${index}-${randomUUID()}`;
        await t.post('/api/client/add', { headers: headers(ADMIN), body: { appName, appUrl: 'https://o.example.com', isHost: false } });
        return clientIdOf(appName);
      }),
    );
    await Promise.all(
      clientIds.map(async (clientId) => {
        for (let change = 0; change < CHANGES; change++) {
          const answer = await t.send('PATCH', `/api/v1/clients/${clientId}`, {
            headers: headers(ADMIN),
            body: change % 2 === 0 ? { appDescription: `change ${change}` } : { isActive: change % 4 !== 1 },
          });
          expect(answer.status).toBe(200);
        }
      }),
    );
    await consumer.waitFor(mine, CLIENTS * (CHANGES + 1));
    for (const clientId of clientIds) {
      const written = (await auditEntries(`&clientId=${clientId}`)).map((entry) => entry.eventId);
      expect(written).toHaveLength(CHANGES + 1);
      const received = consumer.matching((body) => mine(body) && body.clientId === clientId).map((event) => event.body.eventId);
      expect(received).toEqual(written);
    }
  });

  it('should publish an entry a dead instance committed and never published, without being woken', async () => {
    const eventId = randomUUID();
    const requestId = `orphan-${randomUUID()}`;
    // As an instance leaves it when killed between its commit and its relay's pass: only the poll finds it.
    await t.dataSource.query(
      `INSERT INTO audit_event (event_id, occurred_at, action, actor, client_id, sms_config_id, request_id, changed, unpublished)
       VALUES (?, ?, 'client.updated', 'admin:00000000', 42, NULL, ?, '["appUrl"]', 1)`,
      [eventId, '2026-11-24 10:00:00.123', requestId],
    );
    const [event] = await consumer.waitFor((body) => body.requestId === requestId, 1, 5000);
    expect(event.body).toEqual({
      eventId,
      occurredAt: '2026-11-24T10:00:00.123Z',
      action: 'client.updated',
      actor: 'admin:00000000',
      clientId: 42,
      smsConfigId: null,
      requestId,
      callerRequestId: null,
      changed: ['appUrl'],
      details: null,
    });
    expect(event.properties.messageId).toBe(eventId);
  });

  it('should report the outbox backlog and the age of its oldest event, both 0 once everything is published', async () => {
    const { headers, mine } = tagged();
    await t.post('/api/client/add', {
      headers: headers(ADMIN),
      body: { appName: `m-${randomUUID()}`, appUrl: 'https://m.example.com', isHost: false },
    });
    await consumer.waitFor(mine, 1);
    // The relay marks a batch published just after the broker confirmed it, so a consumer may be a moment ahead.
    let metrics = '';
    for (let attempt = 0; attempt < 20 && !/^outbox_unpublished_events 0$/m.test(metrics); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      metrics = (await t.get('/metrics', ADMIN)).raw;
    }
    expect(metrics).toMatch(/^outbox_unpublished_events 0$/m);
    expect(metrics).toMatch(/^outbox_oldest_unpublished_age_seconds 0$/m);
  });
});
