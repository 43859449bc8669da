import { ADMIN_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

/** `count` characters outside the BMP (two UTF-16 units each, one code point, four UTF-8 bytes): an emoji and a letter. */
const astral = (count: number): string => Array.from({ length: count }, (_, index) => (index % 2 === 0 ? '😀' : '𝒜')).join('');
/** `count` hearts with their U+FE0F variation selector: 2 characters each, which class-validator's Length counted as 1. */
const hearts = (count: number): string => '\u2764\uFE0F'.repeat(count);
/** `count` emoji each with U+FE0F: 2 characters and 3 UTF-16 units each, counted as 1 by class-validator's Length. */
const emojiPresentations = (count: number): string => '😀\uFE0F'.repeat(count);
/** `count` letters with a combining acute accent: 2 characters each, shown as one. */
const combined = (count: number): string => 'e\u0301'.repeat(count);
/** A URL of exactly `length` characters, its path made by `fill`. */
const urlOf = (length: number, fill: (count: number) => string): string => {
  const base = 'https://a.example.com/';
  return base + fill(length - base.length);
};

/** 2078 characters that class-validator's Length counted as 2048 (each heart and its selector as one). */
const overlongHeartsUrl = urlOf(2048 - 30, (count) => 'a'.repeat(count)) + hearts(30);

const CLIENT = { appName: 'a', appUrl: 'https://a.example.com', isHost: false };
const CLIENT_TEXT_LIMITS: Array<[string, number]> = [
  ['appName', 100],
  ['appDescription', 1000],
  ['preferredSmsGateway', 100],
];
const SMS_CONFIG_TEXT_LIMITS: Array<[string, number]> = [
  ['providerName', 100],
  ['username', 255],
  ['password', 1024],
  ['apiKey', 4096],
  ['senderId', 20],
  ['smsType', 50],
];
const SMS_CONFIG_URL_FIELDS = ['smsApi', 'providerUrl', 'balanceUrl'];
const PRIVATE_HOST = 'must not name a private, loopback or link-local host (set ALLOW_PRIVATE_PROVIDER_HOSTS=true to allow)';

describe('Hostile input', () => {
  let t: TestApp;
  const addClient = (body: Record<string, unknown>) =>
    t.post('/api/client/add', { headers: { 'x-api-key': ADMIN_API_KEY }, body: { ...CLIENT, ...body } });
  const addSmsConfig = (secretKey: string, body: unknown) => t.post('/api/sms-config/add', { headers: { secretKey }, body });
  const listSmsConfigs = (secretKey: string) => t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } });
  const getClient = (secretKey: string) => t.post('/api/client/get/secretKey', { headers: { secretKey } });
  const storedAppNames = async (): Promise<string[]> =>
    (await t.dataSource.query('SELECT app_name FROM client ORDER BY id')).map((row: { app_name: string }) => row.app_name);
  const smsConfigCount = async (): Promise<number> => (await t.dataSource.query('SELECT id FROM sms_config')).length;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  describe('add client: strings counted as the columns count them (code points)', () => {
    it.each([
      ['emoji and astral letters', astral],
      ['letters with combining accents', (count: number) => combined(count / 2)],
    ])('should store every string field at its exact limit in %s and read it back identical', async (_kind, fill) => {
      const body = {
        appName: fill(100),
        appDescription: fill(1000),
        preferredSmsGateway: fill(100),
        appUrl: urlOf(2048, fill),
      };
      const answer = await addClient(body);
      expect(answer.status).toBe(200);

      const read = await getClient(answer.body.results.secretKey);
      expect(read.status).toBe(200);
      expect(read.body.results).toMatchObject({
        appDescription: body.appDescription,
        appUrl: body.appUrl,
        preferredSmsGateway: body.preferredSmsGateway,
      });
      // appName is never answered: read back from the database.
      expect(await storedAppNames()).toEqual([body.appName]);
    });

    it.each(
      CLIENT_TEXT_LIMITS.flatMap(([field, limit]) => [
        [field, limit, 'hearts with U+FE0F', hearts(limit)],
        [field, limit, 'emoji with U+FE0F', emojiPresentations(limit)],
        [field, limit, 'astral characters', astral(limit + 1)],
        [field, limit, 'combining accents', combined(limit / 2) + 'e'],
      ]),
    )('should refuse %s over %i characters made of %s with 400 naming it, never 500', async (field, limit, _kind, value) => {
      const answer = await addClient({ [field]: value });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 400, error: `${field} must be shorter than or equal to ${limit} characters` });
      expect(await storedAppNames()).toEqual([]);
    });

    it.each([
      ['hearts with U+FE0F', overlongHeartsUrl],
      ['astral characters', urlOf(2049, astral)],
    ])('should refuse an appUrl over 2048 characters made of %s with 400, never 500', async (_kind, appUrl) => {
      const answer = await addClient({ appUrl });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 400, error: 'appUrl must be shorter than or equal to 2048 characters' });
    });

    it.each(['appName', 'appDescription', 'preferredSmsGateway'])(
      'should refuse a %s holding an unpaired surrogate, which no database could store as sent',
      async (field) => {
        const answer = await addClient({ [field]: 'a\ud800b' });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ status: 400, error: `${field} must be valid Unicode (it holds an unpaired surrogate)` });
        expect(await storedAppNames()).toEqual([]);
      },
    );

    it('should refuse a NUL character in appName and appDescription, naming both, and store nothing', async () => {
      const answer = await addClient({ appName: 'a\u0000b', appDescription: 'c\u0000d' });
      expect(answer.body).toEqual({
        status: 400,
        error: 'appName must not contain a control character; appDescription must not contain a control character',
      });
      expect(await storedAppNames()).toEqual([]);
    });
  });

  describe('add SMS configuration: secrets', () => {
    it.each(['password', 'apiKey'])('should refuse a null %s with 400 and store nothing', async (field) => {
      const secretKey = await t.addClient();
      const answer = await addSmsConfig(secretKey, validSmsConfig({ [field]: null }));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 400, error: `${field} must be a string` });
      expect(await smsConfigCount()).toBe(0);
    });

    it('should refuse both secrets null in one message', async () => {
      const secretKey = await t.addClient();
      const answer = await addSmsConfig(secretKey, validSmsConfig({ password: null, apiKey: null }));
      expect(answer.body).toEqual({ status: 400, error: 'password must be a string; apiKey must be a string' });
    });

    it('should still accept a configuration without secrets', async () => {
      const secretKey = await t.addClient();
      expect((await addSmsConfig(secretKey, { providerName: 'p', smsApi: 'https://s.example.com' })).status).toBe(200);
    });
  });

  describe('add SMS configuration: strings counted as the columns count them (code points)', () => {
    // Two requests: every field at once in four-byte characters would be over the body limit.
    it.each([
      ['text field', Object.fromEntries(SMS_CONFIG_TEXT_LIMITS.map(([field, limit]) => [field, astral(limit)]))],
      ['URL', Object.fromEntries(SMS_CONFIG_URL_FIELDS.map((field) => [field, urlOf(2048, astral)]))],
    ])('should store every %s at its exact limit in emoji and astral letters and read it back identical', async (_fields, atLimit) => {
      const secretKey = await t.addClient();
      const body = validSmsConfig(atLimit);
      expect((await addSmsConfig(secretKey, body)).status).toBe(200);

      const { password: _password, apiKey: _apiKey, ...visible } = body;
      const listed = await listSmsConfigs(secretKey);
      expect(listed.body.results).toEqual([{ smsConfigId: expect.any(Number), ...visible }]);
      expect((await getClient(secretKey)).body.results.smsConfig).toEqual([visible]);
    });

    it.each(
      SMS_CONFIG_TEXT_LIMITS.flatMap(([field, limit]) => [
        [field, limit, 'hearts with U+FE0F', hearts(limit)],
        [field, limit, 'emoji with U+FE0F', emojiPresentations(limit)],
        [field, limit, 'astral characters', astral(limit + 1)],
      ]),
    )('should refuse %s over %i characters made of %s with 400 naming it, never 500', async (field, limit, _kind, value) => {
      const secretKey = await t.addClient();
      const answer = await addSmsConfig(secretKey, validSmsConfig({ [field]: value }));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 400, error: `${field} must be shorter than or equal to ${limit} characters` });
      expect(await smsConfigCount()).toBe(0);
    });

    it.each(SMS_CONFIG_URL_FIELDS)(
      'should refuse a %s over 2048 characters made of hearts with U+FE0F with 400, never 500',
      async (field) => {
        const secretKey = await t.addClient();
        const answer = await addSmsConfig(secretKey, validSmsConfig({ [field]: overlongHeartsUrl }));
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ status: 400, error: `${field} must be shorter than or equal to 2048 characters` });
        expect(await smsConfigCount()).toBe(0);
      },
    );

    it.each([...SMS_CONFIG_TEXT_LIMITS.map(([field]) => field)])(
      'should refuse a %s holding an unpaired surrogate, which would be stored altered',
      async (field) => {
        const secretKey = await t.addClient();
        const answer = await addSmsConfig(secretKey, validSmsConfig({ [field]: '\udc00x' }));
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ status: 400, error: `${field} must be valid Unicode (it holds an unpaired surrogate)` });
        expect(await smsConfigCount()).toBe(0);
      },
    );
  });

  describe('URLs: no user name or password', () => {
    it.each([
      ['appUrl', 'https://user:pass@billing.example.com/'],
      ['appUrl', 'https://user@billing.example.com/'],
    ])('should refuse an add-client %s of %s with 400 naming it', async (field, url) => {
      const answer = await addClient({ [field]: url });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 400, error: `${field} must not contain a user name or password` });
      expect(await storedAppNames()).toEqual([]);
    });

    it.each(
      SMS_CONFIG_URL_FIELDS.flatMap((field) => [
        [field, 'https://user:pass@api.example.com/send'],
        [field, 'https://user@api.example.com/send'],
      ]),
    )('should refuse an SMS configuration %s of %s with 400 naming it', async (field, url) => {
      const secretKey = await t.addClient();
      const answer = await addSmsConfig(secretKey, validSmsConfig({ [field]: url }));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 400, error: `${field} must not contain a user name or password` });
      expect(await smsConfigCount()).toBe(0);
    });

    it('should accept an @ in the path or query', async () => {
      const secretKey = await t.addClient();
      const body = validSmsConfig({ smsApi: 'https://api.example.com/send?to=a@b.example', providerUrl: 'https://api.example.com/@acme' });
      expect((await addSmsConfig(secretKey, body)).status).toBe(200);
    });
  });

  describe('provider URLs: no private, loopback or link-local host', () => {
    const PRIVATE_URLS = [
      'http://10.0.0.1/send',
      'http://172.16.0.1/send',
      'http://192.168.1.1/send',
      'http://127.0.0.1:8080/send',
      'http://169.254.169.254/latest/meta-data/',
      'http://0.0.0.0/',
      'http://100.64.0.1/',
      'http://[::1]/',
      'http://[fe80::1]/',
      'http://[fc00::1]/',
      'http://[::]/',
      'http://[::ffff:10.0.0.1]/',
      // IPv6 addresses that embed an IPv4 one, judged as that IPv4 address.
      'http://[::127.0.0.1]/',
      'http://[::ffff:0:127.0.0.1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
      'http://0x7f000001/',
      'http://localhost:3000/send',
      'http://sms.localhost/send',
    ];

    it.each(SMS_CONFIG_URL_FIELDS.flatMap((field) => PRIVATE_URLS.map((url) => [field, url])))(
      'should refuse %s %s with 400 naming the field',
      async (field, url) => {
        const secretKey = await t.addClient();
        const answer = await addSmsConfig(secretKey, validSmsConfig({ [field]: url }));
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ status: 400, error: `${field} ${PRIVATE_HOST}` });
        expect(await smsConfigCount()).toBe(0);
      },
    );

    it('should refuse 127.0.0.1 written as one decimal number, as no absolute URL', async () => {
      const secretKey = await t.addClient();
      const answer = await addSmsConfig(secretKey, validSmsConfig({ smsApi: 'http://2130706433/' }));
      expect(answer.body).toEqual({ status: 400, error: 'smsApi must be an absolute http(s) URL' });
    });

    it('should accept public addresses and names, which are not resolved', async () => {
      const secretKey = await t.addClient();
      const body = validSmsConfig({
        smsApi: 'http://sms.provider.example/send',
        providerUrl: 'http://8.8.8.8/',
        balanceUrl: 'http://[2001:4860:4860::8888]/balance',
      });
      expect((await addSmsConfig(secretKey, body)).status).toBe(200);
    });

    it('should accept IPv6 addresses that embed a public IPv4 one', async () => {
      const secretKey = await t.addClient();
      const body = validSmsConfig({
        smsApi: 'http://[::8.8.8.8]/send',
        providerUrl: 'http://[64:ff9b::808:808]/',
        balanceUrl: 'http://[::ffff:8.8.8.8]/balance',
      });
      expect((await addSmsConfig(secretKey, body)).status).toBe(200);
    });

    it('should accept a private appUrl: the service never calls it', async () => {
      expect((await addClient({ appUrl: 'http://localhost:8080/app' })).status).toBe(200);
    });
  });

  describe('provider URLs: no backslash, control character or whitespace, on which parsers disagree', () => {
    const AMBIGUOUS_URLS: Array<[string, string]> = [
      // The service's parser reads the host sms.example.com, curl reads 169.254.169.254.
      ['a backslash before an @', 'http://sms.example.com\\@169.254.169.254/'],
      ['a backslash in the host', 'https://sms.example.com\\.evil.example/send'],
      ['a backslash in the path', 'https://sms.example.com/a\\b'],
      ['a backslash in the query', 'https://sms.example.com/send?to=\\x'],
      ['a tab', 'https://sms.exam\tple.com/send'],
      ['a carriage return', 'https://sms.example.com/send\r'],
      ['a line feed', 'https://sms.example.com/\nsend'],
      ['a NUL', 'https://sms.example.com\u0000.evil.example/send'],
      ['a space', 'https://sms.example.com/se nd'],
      ['a no-break space (U+00A0)', 'https://sms.example.com/\u00a0send'],
      ['a line separator (U+2028)', 'https://sms.example.com/send\u2028'],
      ['DEL', 'https://sms.example.com/send\u007f'],
    ];
    const refusal = (field: string) => ({ status: 400, error: `${field} must not contain a backslash, a control character or whitespace` });
    const patchSmsConfig = (secretKey: string, smsConfigId: number, body: unknown) =>
      t.send('PATCH', `/api/v1/sms-configs/${smsConfigId}`, { headers: { secretKey }, body });

    it.each(AMBIGUOUS_URLS)('should refuse an add with %s in any provider URL with 400 naming the field: %j', async (_case, url) => {
      const secretKey = await t.addClient();
      for (const field of SMS_CONFIG_URL_FIELDS) {
        const answer = await addSmsConfig(secretKey, validSmsConfig({ [field]: url }));
        expect({ field, status: answer.status, body: answer.body }).toEqual({ field, status: 400, body: refusal(field) });
      }
      expect(await smsConfigCount()).toBe(0);
    });

    it.each(AMBIGUOUS_URLS)('should refuse a PATCH with %s in any provider URL with 400 naming the field: %j', async (_case, url) => {
      const secretKey = await t.addClient();
      const stored = validSmsConfig();
      expect((await addSmsConfig(secretKey, stored)).status).toBe(200);
      const [{ smsConfigId }] = (await listSmsConfigs(secretKey)).body.results;
      for (const field of SMS_CONFIG_URL_FIELDS) {
        // With the credentials sent again, as a change of destination requires: only the URL is wrong.
        const answer = await patchSmsConfig(secretKey, smsConfigId, { [field]: url, password: stored.password, apiKey: stored.apiKey });
        expect({ field, status: answer.status, body: answer.body }).toEqual({ field, status: 400, body: refusal(field) });
      }
      const [unchanged] = (await listSmsConfigs(secretKey)).body.results;
      expect(unchanged).toMatchObject({ smsApi: stored.smsApi, providerUrl: stored.providerUrl, balanceUrl: stored.balanceUrl });
    });

    it('should refuse the first ambiguous URL of several fields, each named', async () => {
      const secretKey = await t.addClient();
      const answer = await addSmsConfig(
        secretKey,
        validSmsConfig({ smsApi: 'https://a.example.com\\@b.example/', balanceUrl: 'https://a.example.com/\t' }),
      );
      expect(answer.body).toEqual({
        status: 400,
        error:
          'smsApi must not contain a backslash, a control character or whitespace; balanceUrl must not contain a backslash, a control character or whitespace',
      });
    });

    it('should accept percent-encoded backslashes, spaces and controls, which every parser reads alike', async () => {
      const secretKey = await t.addClient();
      const urls = {
        smsApi: 'https://sms.example.com/a%5Cb',
        providerUrl: 'https://sms.example.com/a%20b',
        balanceUrl: 'https://sms.example.com/%00',
      };
      expect((await addSmsConfig(secretKey, validSmsConfig(urls))).status).toBe(200);
      expect((await listSmsConfigs(secretKey)).body.results).toEqual([expect.objectContaining(urls)]);
    });
  });
});

// Its own app, started once the other is closed: two apps open at once keep jest from exiting.
describe('Provider URLs with ALLOW_PRIVATE_PROVIDER_HOSTS=true', () => {
  let permissive: TestApp;

  beforeAll(async () => {
    permissive = await startTestApp({ ALLOW_PRIVATE_PROVIDER_HOSTS: 'true' });
  });
  afterAll(() => permissive.close());

  it('should accept private provider URLs and read them back identical', async () => {
    const secretKey = await permissive.addClient();
    const urls = { smsApi: 'http://10.0.0.1/send', providerUrl: 'http://localhost:8080/', balanceUrl: 'http://[fd00::1]/balance' };
    const answer = await permissive.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig(urls) });
    expect(answer.status).toBe(200);
    const listed = await permissive.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } });
    expect(listed.body.results).toEqual([expect.objectContaining(urls)]);
  });

  it('should still refuse a user name and password', async () => {
    const secretKey = await permissive.addClient();
    const body = validSmsConfig({ smsApi: 'http://admin:admin@10.0.0.1/send' });
    const answer = await permissive.post('/api/sms-config/add', { headers: { secretKey }, body });
    expect(answer.body).toEqual({ status: 400, error: 'smsApi must not contain a user name or password' });
  });
});
