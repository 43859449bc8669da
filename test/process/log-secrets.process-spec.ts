import { sha256Hex } from '../../src/auth/digest';
import { ServiceProcess } from '../helpers/service-process';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, KEY_A, validSmsConfig } from '../helpers/test-app';

/**
 * Every secret the service handles, sent every way a caller (or a proxy) can send it, to the built service with its
 * log at its most verbose: not one of them, nor a secret key's digest, may reach a line of its output.
 */
describe('Secrets and the log', () => {
  let t: ServiceProcess;
  const provider = validSmsConfig({ password: 'pr0vider-Passw0rd-for-logs', apiKey: 'live_api_key_for_the_log_test' });
  const wrongAdminKey = 'wrong-admin-key-for-the-log-test';
  const wrongSecretKey = `sk_${'W'.repeat(43)}`;

  beforeAll(async () => {
    t = await ServiceProcess.start({ LOG_LEVEL: 'trace', DISPATCHER_API_KEYS: DISPATCHER_API_KEY });
  });
  afterAll(() => t.stop());

  it('should write no secret key, digest, admin key, provider secret, verifyApiKey or encryption key, at any level', async () => {
    const secretKey = await t.addClient();
    const added = await t.post('/api/sms-config/add', { headers: { secretKey }, body: provider });
    expect(added.status).toBe(200);
    const verifyApiKey = added.body.results.verifyApiKey as string;
    const secrets = {
      secretKey,
      digest: sha256Hex(secretKey),
      adminApiKey: ADMIN_API_KEY,
      wrongAdminKey,
      wrongSecretKey,
      wrongDigest: sha256Hex(wrongSecretKey),
      password: provider.password,
      apiKey: provider.apiKey,
      verifyApiKey,
      encryptionKey: KEY_A.split(':')[1],
      dispatcherApiKey: DISPATCHER_API_KEY,
      replacedPassword: 'replaced-Passw0rd-for-logs',
      replacedApiKey: 'replaced_api_key_for_the_log_test',
    };
    const [{ smsConfigId }] = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
    // The one answer that holds the provider's secrets, and the lifecycle routes that take or issue them.
    const resolved = await t.post('/api/v1/sms-configs/resolve', { headers: { 'x-api-key': DISPATCHER_API_KEY }, body: { verifyApiKey } });
    expect(resolved.body.results).toMatchObject({ password: provider.password, apiKey: provider.apiKey });
    const fresh = await t.post(`/api/v1/sms-configs/${smsConfigId}/verify-api-key`, { headers: { secretKey } });
    const changed = await t.request('PATCH', `/api/v1/sms-configs/${smsConfigId}`, {
      headers: { secretKey },
      body: { password: secrets.replacedPassword, apiKey: secrets.replacedApiKey },
    });
    const rotated = await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey } });
    expect([fresh.status, changed.status, rotated.status]).toEqual([200, 200, 200]);
    Object.assign(secrets, {
      freshVerifyApiKey: fresh.body.results.verifyApiKey,
      changedVerifyApiKey: changed.body.results.verifyApiKey,
      rotatedSecretKey: rotated.body.results.secretKey,
    });
    const resolvedAgain = await t.post('/api/v1/sms-configs/resolve', {
      headers: { 'x-api-key': DISPATCHER_API_KEY },
      body: { verifyApiKey: changed.body.results.verifyApiKey },
    });
    expect(resolvedAgain.body.results).toMatchObject({ password: secrets.replacedPassword, apiKey: secrets.replacedApiKey });
    // A stale token and an admin key on the dispatcher's route: refusals are logged too.
    expect(
      (await t.post('/api/v1/sms-configs/resolve', { headers: { 'x-api-key': DISPATCHER_API_KEY }, body: { verifyApiKey } })).status,
    ).toBe(409);
    expect((await t.post('/api/v1/sms-configs/resolve', { headers: { 'x-api-key': ADMIN_API_KEY }, body: { verifyApiKey } })).status).toBe(
      403,
    );

    const answers = [
      // In headers, on every kind of route, known and wrong.
      await t.post('/api/client/get/secretKey', { headers: { secretKey } }),
      await t.post('/api/client/get/secretKey', { headers: { secretKey } }),
      await t.post('/api/client/get/secretKey', { headers: { secretKey: wrongSecretKey } }),
      await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: wrongSecretKey } }),
      await t.post('/api/client/add', { headers: { 'x-api-key': wrongAdminKey }, body: { appName: 'a' } }),
      // In the query string.
      await t.post(`/api/client/get/secretKey?secretKey=${secretKey}&x-api-key=${ADMIN_API_KEY}`, { headers: { secretKey } }),
      await t.post(`/api/sms-config/add?password=${provider.password}&apiKey=${provider.apiKey}&verifyApiKey=${verifyApiKey}`, {
        headers: { secretKey },
        body: provider,
      }),
      await t.post(`/api/client/get/secretKey?${wrongSecretKey}`, { headers: { secretKey } }),
      // In the path, and as the request id.
      await t.post(`/api/client/get/${secretKey}`),
      await t.post('/api/client/get/secretKey', { headers: { secretKey, 'x-request-id': secretKey } }),
      // In JSON bodies: accepted, refused by validation, and where no body is allowed.
      await t.post('/api/sms-config/add', { headers: { secretKey }, body: { ...provider, balance: 'not a number' } }),
      await t.post('/api/sms-config/add', { headers: { secretKey }, body: { ...provider, unknownField: secretKey } }),
      await t.post('/api/client/get/secretKey', { headers: { secretKey }, body: { secretKey, verifyApiKey } }),
      await t.post('/api/v1/rabbitmq/exchanges', { headers: { 'x-api-key': ADMIN_API_KEY }, body: { name: secretKey, type: 'nope' } }),
      // In malformed bodies.
      await t.post('/api/sms-config/add', {
        headers: { secretKey, 'content-type': 'application/json' },
        payload: `{"password":"${provider.password}","apiKey":"${provider.apiKey}",`,
      }),
      await t.post('/api/sms-config/add', {
        headers: { secretKey, 'content-type': 'text/plain' },
        payload: `password=${provider.password}&apiKey=${provider.apiKey}`,
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([
      200, 200, 404, 401, 401, 200, 200, 200, 404, 200, 400, 400, 400, 400, 400, 415,
    ]);
    // The request id that looks like a key was not kept, so it was never echoed or logged.
    expect(answers[9].headers.get('x-request-id')).not.toBe(secretKey);

    // A turn's lines are written when it ends: the last request's line is out once the service answers another.
    await t.request('GET', '/health');
    const lines = t.logs().filter(Boolean);
    const log = lines.join('\n');
    // Start-up lines (Nest's own among them) and one line per request: the log the test searches is not empty.
    expect(lines.length).toBeGreaterThanOrEqual(answers.length + 20);
    expect(log).toContain('"context":"NestFactory"');
    expect(
      lines.filter((line) => line.includes('"url":"/api/client/get/secretKey?secretKey=[redacted]&x-api-key=[redacted]"')),
    ).toHaveLength(1);
    const found = Object.entries(secrets).filter(([, value]) => log.includes(value));
    expect(found.map(([name]) => name)).toEqual([]);
  });
});
