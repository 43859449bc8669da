import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../src/auth/digest';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, Answer, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const CLIENT = { appName: 'a', appUrl: 'https://a.example.com', isHost: false };
const CONTROL = 'must not contain a control character';
const BIDI = 'must not contain a bidirectional control or a line or paragraph separator (U+202A-U+202E, U+2066-U+2069, U+2028, U+2029)';
/** Two controls; the bidirectional embeddings and overrides, then the isolates; the line and paragraph separators. */
const CHARACTERS: Array<[string, string, string]> = [
  ['a tab', '\t', CONTROL],
  ['BEL (U+0007)', '\u0007', CONTROL],
  ...[0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x2028, 0x2029].map((code): [string, string, string] => [
    `U+${code.toString(16).toUpperCase()}`,
    String.fromCodePoint(code),
    BIDI,
  ]),
];

describe('Control, bidirectional and separator characters in names, descriptions, gateways and notes', () => {
  let t: TestApp;
  let secretKey: string;
  let clientId: number;
  let smsConfigId: number;

  beforeAll(async () => {
    t = await startTestApp();
    secretKey = await t.addClient({ appName: 'text-fields' });
    clientId = (await t.get('/api/v1/clients?appName=text-fields', ADMIN)).body.results.items[0].clientId;
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    smsConfigId = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results[0].smsConfigId;
  });
  afterAll(() => t.close());

  /** Every stored text these operations write. */
  const stored = async () => [
    await t.dataSource.query(
      'SELECT id, app_name, app_description, preferred_sms_gateway, preferred_email_gateway, preferred_push_notification_gateway FROM client ORDER BY id',
    ),
    await t.dataSource.query('SELECT id, provider_name, username, sender_id, sms_type FROM sms_config ORDER BY id'),
    await t.dataSource.query('SELECT id, host, note FROM provider_host ORDER BY id'),
  ];

  const OPERATIONS: Array<[string, string[], (body: Record<string, unknown>) => Promise<Answer>]> = [
    [
      'add client',
      ['appName', 'appDescription', 'preferredSmsGateway'],
      (body) => t.post('/api/client/add', { headers: ADMIN, body: { ...CLIENT, ...body } }),
    ],
    [
      'PATCH client',
      ['appName', 'appDescription', 'preferredSmsGateway', 'preferredEmailGateway', 'preferredPushNotificationGateway'],
      (body) => t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body }),
    ],
    [
      'add SMS configuration',
      ['providerName', 'username', 'senderId', 'smsType'],
      (body) => t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig(body) }),
    ],
    [
      'PATCH SMS configuration',
      ['providerName', 'username', 'senderId', 'smsType'],
      (body) => t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, { headers: { secretKey }, body }),
    ],
    [
      'approve provider host',
      ['note'],
      (body) => t.post('/api/v1/provider-hosts', { headers: ADMIN, body: { host: 'api.twilio.com', ...body } }),
    ],
  ];

  it.each(
    OPERATIONS.flatMap(([operation, fields, send]) =>
      fields.flatMap((field) =>
        CHARACTERS.map(([label, character, refusal]) => [operation, field, label, character, refusal, send] as const),
      ),
    ),
  )(
    'should refuse, on %s, %s holding %s with 400 naming the field, and store nothing',
    async (_operation, field, _label, character, refusal, send) => {
      const before = await stored();
      const answer = await send({ [field]: `a${character}b` });
      expect(answer.body).toEqual({ status: 400, error: `${field} ${refusal}` });
      expect(await stored()).toEqual(before);
    },
  );

  it('should take text beside these characters as before: letters, emoji, the marks U+200E and U+200F, U+2027, U+202F, U+2065', async () => {
    const text = { appName: 'Télé \u200eكتاب\u200f 😀', appDescription: 'a\u2027b\u202fc\u2065d', preferredSmsGateway: 'twilio ✓' };
    const added = await t.post('/api/client/add', { headers: ADMIN, body: { ...CLIENT, ...text } });
    expect(added.status).toBe(200);
    expect(added.body.results).toMatchObject({ appDescription: text.appDescription, preferredSmsGateway: text.preferredSmsGateway });
    const [{ app_name }] = await t.dataSource.query('SELECT app_name FROM client ORDER BY id DESC LIMIT 1');
    expect(app_name).toBe(text.appName);
  });

  it('should take password and apiKey holding U+202E and U+2028 (secrets have their own rules), on add and PATCH', async () => {
    await approveProviderHosts(t);
    const resolve = async (verifyApiKey: string) =>
      (await t.post('/api/v1/sms-configs/resolve', { headers: { 'x-api-key': DISPATCHER_API_KEY }, body: { verifyApiKey } })).body.results;
    const added = await t.post('/api/sms-config/add', {
      headers: { secretKey },
      body: validSmsConfig({ password: 'pass\u202eword', apiKey: 'key\u2028one' }),
    });
    expect(added.status).toBe(200);
    expect(await resolve(added.body.results.verifyApiKey)).toMatchObject({ password: 'pass\u202eword', apiKey: 'key\u2028one' });
    const patched = await t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, {
      headers: { secretKey },
      body: { password: '\u2066p\u2069', apiKey: '\u202dk' },
    });
    expect(patched.status).toBe(200);
    expect(await resolve(patched.body.results.verifyApiKey)).toMatchObject({ password: '\u2066p\u2069', apiKey: '\u202dk' });
  });

  it('should read back unchanged a client and a note stored before with these characters, through a PATCH of another field', async () => {
    const key = `sk_${randomBytes(32).toString('base64url')}`;
    const text = { app_name: 'evil\u202egnp.exe', app_description: 'line\u2028next\tcell', preferred_sms_gateway: '\u2066gw\u2069' };
    await t.dataSource.query(
      'INSERT INTO client (app_name, app_description, app_url, secret_key_digest, preferred_sms_gateway, is_host) VALUES (?, ?, ?, ?, ?, 0)',
      [text.app_name, text.app_description, 'https://old.example.com', sha256Hex(key), text.preferred_sms_gateway],
    );
    const [{ id }] = await t.dataSource.query('SELECT id FROM client WHERE secret_key_digest = ?', [sha256Hex(key)]);
    await t.dataSource.query("INSERT INTO provider_host (host, note, created_at) VALUES ('old.example.com', ?, '2026-11-01 00:00:00')", [
      'contract\u202e41-6202',
    ]);

    const read = await t.post('/api/client/get/secretKey', { headers: { secretKey: key } });
    expect(read.body.results).toMatchObject({ appDescription: text.app_description, preferredSmsGateway: text.preferred_sms_gateway });
    const patched = await t.send('PATCH', `/api/v1/clients/${id}`, { headers: ADMIN, body: { isHost: true } });
    expect(patched.status).toBe(200);
    expect(patched.body.results).toMatchObject({
      appName: text.app_name,
      appDescription: text.app_description,
      preferredSmsGateway: text.preferred_sms_gateway,
    });
    expect((await t.get(`/api/v1/clients/${id}`, ADMIN)).body.results.appName).toBe(text.app_name);
    const hosts = (await t.get('/api/v1/provider-hosts', ADMIN)).body.results.items;
    expect(hosts.find((host: { host: string }) => host.host === 'old.example.com').note).toBe('contract\u202e41-6202');
  });
});
