import { ADMIN_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

/** A key as a hostile caller writes it: a terminal escape sequence, then 30,000 characters. */
const HOSTILE_KEY = `\u001b[31m${'x'.repeat(30_000)}`;
const TEXT_FIELDS = ['providerName', 'username', 'senderId', 'smsType'];
/** A C0 control, a line break, DEL and a C1 control (NEL). */
const CONTROLS = ['\u0007', '\n', '\u007f', '\u0085'];

describe('Field names echoed by a 400, at any depth', () => {
  let t: TestApp;
  let secretKey: string;
  let smsConfigId: number;

  beforeAll(async () => {
    t = await startTestApp();
    secretKey = await t.addClient();
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    [{ id: smsConfigId }] = await t.dataSource.query('SELECT id FROM sms_config');
  });
  afterAll(() => t.close());

  // 64 printable characters: the path with the escape shown as ?, cut to 63 and an ellipsis.
  const CUT_NAME = `destinationPrices[0].?[31m${'x'.repeat(37)}…`;

  it('should name an unknown key of a destinationPrices entry in at most 64 printable characters, on add', async () => {
    const answer = await t.post('/api/sms-config/add', {
      headers: { secretKey },
      body: validSmsConfig({ destinationPrices: [{ prefix: '44', perSmsCost: 0.01, [HOSTILE_KEY]: 1 }] }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, error: `property ${CUT_NAME} should not exist` });
    expect(Array.from(CUT_NAME)).toHaveLength(64);
    expect(answer.raw.length).toBeLessThan(200);
  });

  it('should name it the same way on PATCH', async () => {
    const answer = await t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, {
      headers: { secretKey },
      body: { destinationPrices: [{ prefix: '44', perSmsCost: 0.01, [HOSTILE_KEY]: 1 }] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, error: `property ${CUT_NAME} should not exist` });
  });

  it('should name a top-level unknown key, and the path of an inexact number, within the same bound', async () => {
    const unknown = await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig({ [HOSTILE_KEY]: 1 }) });
    expect(unknown.body).toEqual({ status: 400, error: `property ?[31m${'x'.repeat(58)}… should not exist` });
    const payload = `{"providerName":"p","smsApi":"https://api.twilio.com/send","${'k'.repeat(100)}":8589934592.000001}`;
    const inexact = await t.post('/api/sms-config/add', { headers: { secretKey, 'content-type': 'application/json' }, payload });
    expect(inexact.body).toEqual({
      status: 400,
      error: `${'k'.repeat(63)}… cannot be kept exactly as a number: 8589934592.000001 (15 significant digits always can)`,
    });
  });
});

describe('Control characters in provider names and labels', () => {
  let t: TestApp;
  let secretKey: string;

  beforeAll(async () => {
    t = await startTestApp();
    secretKey = await t.addClient();
  });
  afterEach(() => t.dataSource.query('DELETE FROM sms_config'));
  afterAll(() => t.close());

  const smsConfigCount = async () => (await t.dataSource.query('SELECT id FROM sms_config')).length as number;

  it.each(TEXT_FIELDS.flatMap((field) => CONTROLS.map((control) => [field, control])))(
    'should refuse %s holding %j on add with 400 naming the field, and store nothing',
    async (field, control) => {
      const answer = await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig({ [field]: `a${control}b` }) });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 400, error: `${field} must not contain a control character` });
      expect(await smsConfigCount()).toBe(0);
    },
  );

  it.each(TEXT_FIELDS)('should refuse %s holding a tab on PATCH, and change nothing', async (field) => {
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    const [{ id }] = await t.dataSource.query('SELECT id FROM sms_config');
    const before = (await t.get(`/api/v1/sms-configs/${id}`, { secretKey })).raw;
    const answer = await t.send('PATCH', `/api/v1/sms-configs/${id}`, { headers: { secretKey }, body: { [field]: 'a\tb' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, error: `${field} must not contain a control character` });
    expect((await t.get(`/api/v1/sms-configs/${id}`, { secretKey })).raw).toBe(before);
  });

  it('should accept printable text beyond ASCII, and keep the text of rows stored before, through a PATCH of another field', async () => {
    const added = await t.post('/api/sms-config/add', {
      headers: { secretKey },
      body: validSmsConfig({ providerName: 'Télé SMS 😀', senderId: 'ÄCME', smsType: 'Transactional ✓' }),
    });
    expect(added.status).toBe(200);
    const [{ id }] = await t.dataSource.query('SELECT id FROM sms_config');
    await t.dataSource.query('UPDATE sms_config SET provider_name = ?, sender_id = ? WHERE id = ?', ['old\tname', 'A\nB', id]);
    const patched = await t.send('PATCH', `/api/v1/sms-configs/${id}`, { headers: { secretKey }, body: { isActive: false } });
    expect(patched.status).toBe(200);
    expect(patched.body.results).toEqual(
      expect.objectContaining({ providerName: 'old\tname', senderId: 'A\nB', smsType: 'Transactional ✓' }),
    );
    const listed = await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } });
    expect(listed.body.results[0]).toEqual(expect.objectContaining({ providerName: 'old\tname', senderId: 'A\nB' }));
  });
});

describe('Methods no route serves', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: string) =>
    t.app
      .getHttpAdapter()
      .getInstance()
      .inject({ method: method as 'GET', url, headers, payload });

  const HEADERS: Array<[string, Record<string, string>, string | undefined]> = [
    ['no Content-Type', {}, undefined],
    ['no Content-Type and a body', { 'content-length': '2' }, '{}'],
    ['application/json', { 'content-type': 'application/json', 'x-api-key': ADMIN_API_KEY }, '{"appName":'],
    ['text/plain', { 'content-type': 'text/plain' }, 'hello'],
    ['a malformed Content-Type', { 'content-type': '/;;' }, 'x'],
  ];

  it.each(
    ['QUERY', 'PROPFIND', 'PUT', 'OPTIONS', 'PROPPATCH', 'MKCOL', 'LOCK', 'SEARCH', 'REPORT'].flatMap((method) =>
      ['/api/client/add', '/api/v1/clients', '/nowhere'].flatMap((url) =>
        HEADERS.map(([label, headers, payload]): [string, string, string, Record<string, string>, string | undefined] => [
          method,
          url,
          label,
          headers,
          payload,
        ]),
      ),
    ),
  )('should answer %s %s (%s) with 404 in the envelope', async (method, url, _label, headers, payload) => {
    const answer = await inject(method, url, headers, payload);
    expect(answer.statusCode).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({ status: 404, error: `Cannot ${method} ${url}` });
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('should still serve the methods routes serve, and answer a served method on an unknown path as before', async () => {
    expect((await inject('GET', '/health')).statusCode).toBe(200);
    expect((await inject('HEAD', '/health')).statusCode).toBe(200);
    const unknown = await inject('POST', '/nowhere', { 'content-type': 'application/json' }, '{}');
    expect(JSON.parse(unknown.body)).toEqual({ status: 404, error: 'Cannot POST /nowhere' });
  });
});
