import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  callerRequestId?: string | null;
  sourceAddress?: string | null;
  route?: string;
  durationMs?: number;
  method?: string;
  url?: string;
  statusCode?: number;
}

describe('Logs', () => {
  let t: TestApp;
  let logFile: string;

  /** The lines logged so far: a turn's lines are written when it ends. */
  const readLines = async (): Promise<LogLine[]> => {
    await new Promise((resolve) => setImmediate(resolve));
    return readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as LogLine);
  };
  const requestLines = async (id: string) => (await readLines()).filter((line) => line.statusCode !== undefined && line.requestId === id);
  /** The lines of the requests sent with this x-request-id of the caller's. */
  const callerLines = async (id: string) =>
    (await readLines()).filter((line) => line.statusCode !== undefined && line.callerRequestId === id);

  beforeAll(async () => {
    logFile = join(mkdtempSync(join(tmpdir(), 'registry-logs-')), 'service.log');
    // At debug, so that the quiet routes' answers (get-client, /health) have their line too: at info they have none
    // (src/http/access-log.spec.ts, test/trace.e2e-spec.ts).
    t = await startTestApp({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json', LOG_FILE: logFile });
  });
  afterAll(() => t.close());

  it("should write exactly one JSON line per request with the service's id, the caller's id, the address, route, status and duration", async () => {
    const answer = await t.get('/health', { 'x-request-id': 'log-check-1' });
    const id = answer.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const lines = await requestLines(id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      requestId: id,
      callerRequestId: 'log-check-1',
      sourceAddress: '127.0.0.1',
      route: '/health',
      method: 'GET',
      url: '/health',
      statusCode: answer.status,
    });
    expect(typeof lines[0].durationMs).toBe('number');
  });

  it('should log the same generated id the answer carries in x-request-id', async () => {
    const answer = await t.post('/api/client/add', { headers: { 'x-api-key': ADMIN_API_KEY }, body: { appName: 'x' } });
    const id = answer.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const lines = await requestLines(id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ route: '/api/client/add', statusCode: 400, callerRequestId: null });
  });

  it("should log a caller's id that looks like a key, or is not a sane token, as null", async () => {
    const keyLike = 'sk_' + 'A1b2C3d4'.repeat(6);
    for (const given of [keyLike, 'bad id with spaces']) {
      const answer = await t.get('/health', { 'x-request-id': given });
      const [line] = await requestLines(answer.headers['x-request-id'] as string);
      expect(line).toMatchObject({ route: '/health', callerRequestId: null });
    }
    expect((await readLines()).some((line) => JSON.stringify(line).includes(keyLike))).toBe(false);
  });

  it('should log requests refused before they reach a handler (body type, body size) once each', async () => {
    const headers = { 'x-api-key': ADMIN_API_KEY };
    await t.post('/api/client/add', { headers: { ...headers, 'content-type': 'text/plain', 'x-request-id': 'log-415' }, payload: 'a' });
    await t.post('/api/client/add', { headers: { ...headers, 'x-request-id': 'log-413' }, body: { appName: 'a'.repeat(70 * 1024) } });
    expect(await callerLines('log-415')).toEqual([expect.objectContaining({ route: '/api/client/add', statusCode: 415 })]);
    expect(await callerLines('log-413')).toEqual([expect.objectContaining({ route: '/api/client/add', statusCode: 413 })]);
  });

  it('should log an answer from the get-client cache like any other', async () => {
    const secretKey = await t.addClient();
    await t.post('/api/client/get/secretKey', { headers: { secretKey } });
    await t.post('/api/client/get/secretKey', { headers: { secretKey, 'x-request-id': 'log-cached' } });
    expect(await callerLines('log-cached')).toEqual([
      expect.objectContaining({ level: 20, route: '/api/client/get/secretKey', statusCode: 200, durationMs: expect.any(Number) }),
    ]);
  });

  it('should label a request no route matched as unmatched, not by its URL', async () => {
    await t.get('/no/such/route', { 'x-request-id': 'log-unmatched' });
    expect(await callerLines('log-unmatched')).toEqual([expect.objectContaining({ route: 'unmatched', statusCode: 404 })]);
  });

  it('should keep every credential out of the logs through a whole scenario', async () => {
    const provider = validSmsConfig();
    const secretKey = await t.addClient();
    const added = await t.post('/api/sms-config/add', { headers: { secretKey }, body: provider });
    expect(added.status).toBe(200);
    expect((await t.post('/api/client/get/secretKey', { headers: { secretKey } })).status).toBe(200);
    const wrongAdmin = await t.post('/api/client/add', {
      headers: { 'x-api-key': 'wrong-admin-key-xyz' },
      body: { appName: 'a', appUrl: 'https://a.example.com', isHost: false },
    });
    expect(wrongAdmin.status).toBe(401);
    const wrongSecret = `sk_${'w'.repeat(43)}`;
    expect((await t.post('/api/client/get/secretKey', { headers: { secretKey: wrongSecret } })).status).toBe(404);
    expect((await t.post('/api/sms-config/add', { headers: { secretKey: wrongSecret }, body: provider })).status).toBe(401);

    expect((await readLines()).filter((line) => line.statusCode !== undefined).length).toBeGreaterThanOrEqual(6);
    const log = readFileSync(logFile, 'utf8');
    for (const secret of [secretKey, ADMIN_API_KEY, 'wrong-admin-key-xyz', wrongSecret, provider.password, provider.apiKey]) {
      expect({ secret, found: log.includes(secret) }).toEqual({ secret, found: false });
    }
  });
});
