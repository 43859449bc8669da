import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyUsageFlusher } from '../src/key-usage/key-usage-flusher';
import CLIENT from './fixtures/client.json';
import { EventConsumer } from './helpers/event-consumer';
import { ADMIN_API_KEY, Answer, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
/** The proxy in front of the service: the test's requests come from it (inject's peer), TRUST_PROXY lists it. */
const PROXY = '127.0.0.1';
const OWNER = '198.51.100.10';
const THIEF = '203.0.113.66';
const THIEF_AGENT = 'python-requests/2.32.3';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface LogLine {
  level: number;
  callerRequestId?: string | null;
  statusCode?: number;
  route?: string;
  sourceAddress?: string | null;
}

/**
 * What an investigation of a leaked secretKey reads (docs/operations.md): the audit log, key usage and the logs, at the
 * default LOG_LEVEL=info. The thief's five requests, through the proxy with x-forwarded-for, as the security review made them.
 */
describe('A trace of every use of a key', () => {
  let t: TestApp;
  let logFile: string;
  let consumer: EventConsumer;
  const tag = `trace.${randomUUID().slice(0, 8)}.`;

  /** Everything the five requests left, read once they are made. */
  const scenario = {} as {
    clientId: number;
    secretKey: string;
    config: ReturnType<typeof validSmsConfig>;
    viewBefore: Record<string, unknown>;
    viewAfterGetClient: Record<string, unknown>;
    viewAfterReads: Record<string, unknown>;
    answers: Record<'getClient' | 'list' | 'read' | 'verify' | 'rotate', Answer>;
  };

  const readLines = async (): Promise<LogLine[]> => {
    await new Promise((resolve) => setImmediate(resolve));
    return readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as LogLine);
  };
  const requestLines = async (step: string) =>
    (await readLines()).filter((line) => line.statusCode !== undefined && line.callerRequestId === `${tag}${step}`);
  const flushKeyUsage = () => t.app.get(KeyUsageFlusher).flush();
  const adminView = async (clientId: number) => (await t.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results as Record<string, unknown>;
  const asThief = (step: string, headers: Record<string, string>) => ({
    ...headers,
    'x-forwarded-for': THIEF,
    'user-agent': THIEF_AGENT,
    'x-request-id': `${tag}${step}`,
  });

  beforeAll(async () => {
    logFile = join(mkdtempSync(join(tmpdir(), 'registry-trace-')), 'service.log');
    consumer = await EventConsumer.bind('client.secret-key.rotated');
    // A flush interval no test waits for: each test flushes key usage itself.
    t = await startTestApp({ LOG_LEVEL: 'info', LOG_FORMAT: 'json', LOG_FILE: logFile, TRUST_PROXY: PROXY, KEY_USAGE_FLUSH_MS: '600000' });

    const appName = `trace-${randomUUID()}`;
    const secretKey = await t.addClient({ appName });
    const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    const config = validSmsConfig();
    // The owner's own use, from its own address, before the key leaks.
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: config, remoteAddress: OWNER })).status).toBe(200);
    await flushKeyUsage();
    const viewBefore = await adminView(clientId);

    const getClient = await t.post('/api/client/get/secretKey', { headers: asThief('get-client', { secretKey }) });
    await flushKeyUsage();
    const viewAfterGetClient = await adminView(clientId);
    const list = await t.post('/api/sms-config/get-all-by-client-id', { headers: asThief('list', { secretKey }) });
    const smsConfigId = list.body.results[0].smsConfigId as number;
    const read = await t.get(`/api/v1/sms-configs/${smsConfigId}`, asThief('read', { secretKey }));
    const verify = await t.post(`/api/v1/sms-configs/${smsConfigId}/verify-api-key`, { headers: asThief('verify', { secretKey }) });
    await flushKeyUsage();
    const viewAfterReads = await adminView(clientId);
    const rotate = await t.post('/api/v1/client/secret-key/rotate', {
      headers: asThief('rotate', { secretKey }),
      body: { graceSeconds: 0 },
    });
    Object.assign(scenario, {
      clientId,
      secretKey,
      config,
      viewBefore,
      viewAfterGetClient,
      viewAfterReads,
      answers: { getClient, list, read, verify, rotate },
    });
  });
  afterAll(async () => {
    await t.close();
    await consumer.close();
  });

  it('should answer the five requests of the stolen key', () => {
    const statuses = Object.fromEntries(Object.entries(scenario.answers).map(([step, answer]) => [step, answer.status]));
    expect(statuses).toEqual({ getClient: 200, list: 200, read: 200, verify: 200, rotate: 200 });
  });

  it("should audit the rotation with the thief's address and user agent, the client as actor", async () => {
    const entries = (await t.get(`/api/v1/audit-events?clientId=${scenario.clientId}&action=client.secret-key.rotated`, ADMIN)).body.results
      .items;
    expect(entries).toEqual([
      expect.objectContaining({
        actor: `client:${scenario.clientId}`,
        callerRequestId: `${tag}rotate`,
        requestId: scenario.answers.rotate.headers['x-request-id'],
        changed: ['secretKey'],
        details: null,
        sourceAddress: THIEF,
        userAgent: THIEF_AGENT,
      }),
    ]);
    // The owner's add came straight from its own address, with inject's User-Agent.
    const [created] = (await t.get(`/api/v1/audit-events?clientId=${scenario.clientId}&action=sms-config.created`, ADMIN)).body.results
      .items;
    expect(created).toMatchObject({ sourceAddress: OWNER, userAgent: 'lightMyRequest' });
  });

  it('should store a User-Agent that holds a key-like run of 40 characters as null, and keep one of 39', async () => {
    const keyLike = `sk_${'Ab1-'.repeat(9)}_`;
    const addWith = async (userAgent: string) => {
      const appName = `agent-${randomUUID()}`;
      expect(
        (await t.post('/api/client/add', { headers: { ...ADMIN, 'user-agent': userAgent }, body: { ...CLIENT, appName } })).status,
      ).toBe(200);
      const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
      const [entry] = (await t.get(`/api/v1/audit-events?clientId=${clientId}&action=client.created`, ADMIN)).body.results.items;
      return entry.userAgent as string | null;
    };
    expect(await addWith(`curl/8 ${keyLike}`)).toBeNull();
    expect(await addWith(`curl/8 ${keyLike.slice(0, 39)}`)).toBe(`curl/8 ${keyLike.slice(0, 39)}`);
  });

  it('should publish the rotation without where it came from', async () => {
    const [entry] = (await t.get(`/api/v1/audit-events?clientId=${scenario.clientId}&action=client.secret-key.rotated`, ADMIN)).body.results
      .items;
    const [event] = await consumer.waitFor((body) => body.eventId === entry.eventId, 1);
    expect(Object.keys(event.body)).not.toContain('sourceAddress');
    expect(Object.keys(event.body)).not.toContain('userAgent');
    const { sourceAddress: _address, userAgent: _agent, ...published } = entry;
    expect(event.body).toEqual(published);
    expect(event.raw).not.toContain(THIEF);
    expect(event.raw).not.toContain(THIEF_AGENT);
  });

  it("should show the key's last address in key usage, the get-client read's included, at most one a flush", () => {
    expect(scenario.viewBefore).toMatchObject({ secretKeyLastUsedAt: expect.any(String), secretKeyLastUsedFrom: OWNER });
    // get-client leaves no log line (below): key usage is where its use shows.
    expect(scenario.viewAfterGetClient).toMatchObject({ secretKeyLastUsedFrom: THIEF, previousSecretKeyLastUsedFrom: null });
    expect(Date.parse(scenario.viewAfterGetClient.secretKeyLastUsedAt as string)).toBeGreaterThan(
      Date.parse(scenario.viewBefore.secretKeyLastUsedAt as string),
    );
    expect(scenario.viewAfterReads).toMatchObject({ secretKeyLastUsedFrom: THIEF });
  });

  it('should log the list, read, verify-api-key and rotation at info with the address, and the get-client read not at all', async () => {
    expect(await requestLines('get-client')).toEqual([]);
    const routes = {
      list: '/api/sms-config/get-all-by-client-id',
      read: '/api/v1/sms-configs/:smsConfigId',
      verify: '/api/v1/sms-configs/:smsConfigId/verify-api-key',
      rotate: '/api/v1/client/secret-key/rotate',
    };
    for (const [step, route] of Object.entries(routes)) {
      expect({ step, lines: await requestLines(step) }).toEqual({
        step,
        lines: [expect.objectContaining({ level: 30, route, statusCode: 200, sourceAddress: THIEF })],
      });
    }
  });

  it('should keep every secret of the scenario out of the log', () => {
    const log = readFileSync(logFile, 'utf8');
    const secrets = [
      scenario.secretKey,
      sha256(scenario.secretKey),
      scenario.answers.rotate.body.results.secretKey as string,
      scenario.answers.verify.body.results.verifyApiKey as string,
      scenario.config.password,
      scenario.config.apiKey,
      ADMIN_API_KEY,
    ];
    for (const secret of secrets) expect({ secret, found: log.includes(secret) }).toEqual({ secret, found: false });
  });

  it('should write an IPv4-mapped peer as IPv4, and cut a long user agent to 200 characters without refusing it', async () => {
    const secretKey = await t.addClient();
    const added = await t.post('/api/sms-config/add', {
      // Words apart: a run of 40 letters would be key-like, and stored as null.
      headers: { secretKey, 'user-agent': `Agent/${'x '.repeat(2500)}` },
      body: validSmsConfig(),
      remoteAddress: '::ffff:198.51.100.23',
    });
    expect(added.status).toBe(200);
    const [entry] = (await t.get('/api/v1/audit-events?action=sms-config.created&limit=1', ADMIN)).body.results.items;
    expect(entry.sourceAddress).toBe('198.51.100.23');
    expect(entry.userAgent).toBe(`Agent/${'x '.repeat(97).slice(0, 193)}…`);
    expect([...entry.userAgent]).toHaveLength(200);
  });

  it("should keep the key's last address as the previous key's through a rotation with a grace", async () => {
    const appName = `trace-grace-${randomUUID()}`;
    const secretKey = await t.addClient({ appName });
    const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    expect((await t.post('/api/client/get/secretKey', { headers: { secretKey, 'x-forwarded-for': THIEF } })).status).toBe(200);
    await flushKeyUsage();
    expect((await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey }, body: { graceSeconds: 60 } })).status).toBe(200);
    expect(await adminView(clientId)).toMatchObject({ secretKeyLastUsedFrom: null, previousSecretKeyLastUsedFrom: THIEF });
  });

  it('should read an entry written as the previous release wrote it, and a row used before the upgrade, with nulls', async () => {
    const secretKey = await t.addClient();
    const [{ id: clientId }] = await t.dataSource.query('SELECT id FROM client WHERE secret_key_digest = ?', [sha256(secretKey)]);
    const requestId = `before-upgrade-${randomUUID()}`;
    await t.dataSource.query(
      `INSERT INTO audit_event (event_id, occurred_at, action, actor, client_id, sms_config_id, request_id, changed, unpublished)
       VALUES (?, ?, 'client.updated', 'admin:00000000', ?, NULL, ?, '["appUrl"]', 0)`,
      [randomUUID(), '2026-11-24 10:00:00.123', clientId, requestId],
    );
    await t.dataSource.query('UPDATE client SET secret_key_last_used_at = ? WHERE id = ?', ['2026-11-24 10:00:00.123', clientId]);
    const entries = (await t.get(`/api/v1/audit-events?clientId=${clientId}&action=client.updated`, ADMIN)).body.results.items;
    expect(entries).toEqual([expect.objectContaining({ requestId, details: null, sourceAddress: null, userAgent: null })]);
    expect(await adminView(Number(clientId))).toMatchObject({
      secretKeyLastUsedAt: '2026-11-24T10:00:00.123Z',
      secretKeyLastUsedFrom: null,
      previousSecretKeyLastUsedFrom: null,
    });
  });
});
