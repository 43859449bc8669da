import { sha256Hex } from '../../src/auth/digest';
import { parseEncryptionKeys } from '../../src/config/encryption-keys';
import { RequestDigests } from '../../src/crypto/request-digests';
import { approveProviderHosts } from '../helpers/provider-hosts';
import { ServiceProcess } from '../helpers/service-process';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, KEY_A, validSmsConfig } from '../helpers/test-app';

/**
 * Every secret the service handles, sent every way a caller (or a proxy) can send it, to the built service with its
 * log at its most verbose: not one of them, nor a secret key's digest, may reach a line of its output.
 */
describe('Secrets and the log', () => {
  let t: ServiceProcess;
  const provider = validSmsConfig({ password: 'pr0vider-Passw0rd-for-logs', apiKey: 'live_api_key_for_the_log_test' });
  const custodyProvider = validSmsConfig({ password: 'cust0dy-Passw0rd-for-logs', apiKey: 'custody_api_key_for_the_log_test' });
  const wrongAdminKey = 'wrong-admin-key-for-the-log-test';
  const wrongSecretKey = `sk_${'W'.repeat(43)}`;

  beforeAll(async () => {
    t = await ServiceProcess.start({ LOG_LEVEL: 'trace', DISPATCHER_API_KEYS: DISPATCHER_API_KEY });
    await approveProviderHosts(t);
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
      custodyPassword: custodyProvider.password,
      custodyApiKey: custodyProvider.apiKey,
      reusedKeyPassword: 'reused-key-Passw0rd-for-logs',
      guessedPassword: 'guessed-Passw0rd-for-the-redirect',
      redirectedPassword: 'redirected-Passw0rd-for-logs',
      redirectedApiKey: 'redirected_api_key_for_the_log_test',
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

    // Dispatch: routing hands out tokens under the client's key, a report changes the balance and the health.
    const dispatcher = { 'x-api-key': DISPATCHER_API_KEY };
    const routed = await t.post('/api/v1/dispatch/route', { headers: { ...dispatcher, secretKey: rotated.body.results.secretKey } });
    expect(routed.status).toBe(200);
    Object.assign(secrets, { routedVerifyApiKey: routed.body.results.candidates[0].verifyApiKey });
    const dispatchStatuses = [
      (await t.post('/api/v1/dispatch/route', { headers: { ...dispatcher, secretKey } })).status,
      (await t.post('/api/v1/dispatch/route', { headers: { 'x-api-key': ADMIN_API_KEY, secretKey } })).status,
      (await t.post('/api/v1/dispatch/route', { headers: { ...dispatcher, secretKey: wrongSecretKey } })).status,
      (await t.post('/api/v1/dispatch/outcomes', { headers: dispatcher, body: { smsConfigId, sent: 0, failed: 5 } })).status,
      (
        await t.post('/api/v1/dispatch/outcomes', {
          headers: { ...dispatcher, 'idempotency-key': 'report-1' },
          body: { smsConfigId, sent: 2, failed: 0, balance: 3.5 },
        })
      ).status,
      (await t.post('/api/v1/dispatch/outcomes', { headers: { 'x-api-key': wrongAdminKey }, body: { smsConfigId, sent: 1, failed: 0 } }))
        .status,
    ];
    expect(dispatchStatuses).toEqual([200, 403, 401, 200, 200, 401]);

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

    // The custody paths, for a client of their own (the first one's key must still hold above). An add with the provider's
    // secrets in its body under an Idempotency-Key, kept only as its HMAC: answered, replayed, and refused with another password.
    const custodyKey = await t.addClient({ appName: 'Custody' });
    const addKept = (body: Record<string, unknown>) =>
      t.post('/api/sms-config/add', { headers: { secretKey: custodyKey, 'idempotency-key': 'log-test-add' }, body });
    const kept = await addKept(custodyProvider);
    const replayed = await addKept(custodyProvider);
    const reused = await addKept({ ...custodyProvider, password: secrets.reusedKeyPassword });
    expect([kept.status, replayed.status, reused.status]).toEqual([200, 200, 422]);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.raw).toBe(kept.raw);
    expect(reused.body.error).toBe('Idempotency-Key was used with a different request');
    const custodyToken = kept.body.results.verifyApiKey as string;
    // What the service keeps of that request, and what an older release kept: neither may be written either.
    const keptRequest = `POST /api/sms-config/add\n${JSON.stringify(custodyProvider)}`;
    Object.assign(secrets, {
      custodySecretKey: custodyKey,
      custodyDigest: sha256Hex(custodyKey),
      custodyVerifyApiKey: custodyToken,
      keptRequestHmac: new RequestDigests(parseEncryptionKeys(KEY_A)).digest(keptRequest).digest,
      keptRequestSha256: sha256Hex(keptRequest),
    });
    const [{ smsConfigId: custodyConfigId }] = (
      await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: custodyKey } })
    ).body.results;
    const patchCustody = (key: string, body: Record<string, unknown>) =>
      t.request('PATCH', `/api/v1/sms-configs/${custodyConfigId}`, { headers: { secretKey: key }, body });
    const resolve = (token: string) =>
      t.post('/api/v1/sms-configs/resolve', { headers: { 'x-api-key': DISPATCHER_API_KEY }, body: { verifyApiKey: token } });
    // A redirect of the stored credentials refused for want of the apiKey, though it carries a password; then one carrying both.
    const refusedRedirect = await patchCustody(custodyKey, { smsApi: 'https://evil.example.net/steal', password: secrets.guessedPassword });
    const redirected = await patchCustody(custodyKey, {
      smsApi: 'https://moved.example.com/send',
      password: secrets.redirectedPassword,
      apiKey: secrets.redirectedApiKey,
    });
    expect([refusedRedirect.status, redirected.status]).toEqual([400, 200]);
    expect(refusedRedirect.body.error).toBe('apiKey must be sent again to change smsApi');
    // Tokens until one has a - or _ to swap: the other spellings hold for any. Every one of them is a secret.
    const redirectedTokens: string[] = [redirected.body.results.verifyApiKey];
    while (!/[-_]/.test(redirectedTokens[0]) && redirectedTokens.length < 20) {
      const issued = await t.post(`/api/v1/sms-configs/${custodyConfigId}/verify-api-key`, { headers: { secretKey: custodyKey } });
      expect(issued.status).toBe(200);
      redirectedTokens.unshift(issued.body.results.verifyApiKey);
    }
    const [token] = redirectedTokens;
    const respelled = {
      padded: `${token}${'='.repeat(4 - (token.length % 4))}`,
      plusAndSlash: token.replace(/-/g, '+').replace(/_/g, '/'),
      spaced: `${token.slice(0, 20)} ${token.slice(20)}`,
      trailingCharacter: `${token}A`,
    };
    expect(Object.values(respelled)).not.toContain(token);
    redirectedTokens.forEach((issued, index) => Object.assign(secrets, { [`redirectedVerifyApiKey${index}`]: issued }));
    Object.entries(respelled).forEach(([spelling, value]) => Object.assign(secrets, { [`respelledVerifyApiKey:${spelling}`]: value }));
    const resolutions = [await resolve(custodyToken)];
    for (const value of Object.values(respelled)) resolutions.push(await resolve(value));
    resolutions.push(await resolve(token));
    const deactivated = await patchCustody(custodyKey, { isActive: false });
    resolutions.push(await resolve(token));
    // An admin revokes the client's key at once (and retries, answered the new key again): the tokens it obtained die with it.
    const [{ clientId: custodyClientId }] = (
      await t.request('GET', '/api/v1/clients?appName=Custody', { headers: { 'x-api-key': ADMIN_API_KEY } })
    ).body.results.items;
    const revoke = () =>
      t.post(`/api/v1/clients/${custodyClientId}/secret-key/rotate`, {
        headers: { 'x-api-key': ADMIN_API_KEY, 'idempotency-key': 'log-test-revoke' },
        body: { graceSeconds: 0 },
      });
    const revoked = await revoke();
    const revokedAgain = await revoke();
    expect(revokedAgain.raw).toBe(revoked.raw);
    Object.assign(secrets, {
      revokedForSecretKey: revoked.body.results.secretKey,
      revokedForDigest: sha256Hex(revoked.body.results.secretKey),
    });
    const reactivated = await patchCustody(revoked.body.results.secretKey, { isActive: true });
    const revokedKeyRefused = await patchCustody(custodyKey, { isActive: true });
    resolutions.push(await resolve(token), await resolve(custodyToken));
    expect([deactivated.status, revoked.status, revokedAgain.status, reactivated.status, revokedKeyRefused.status]).toEqual([
      200, 200, 200, 200, 401,
    ]);
    expect(resolutions.map((answer) => [answer.status, answer.body.error])).toEqual([
      [409, 'verifyApiKey is stale'],
      ...Object.values(respelled).map(() => [400, 'verifyApiKey is not valid']),
      [200, undefined],
      [409, 'SMS configuration is inactive'],
      [409, 'verifyApiKey was issued under a secret key that is no longer valid'],
      [409, 'verifyApiKey was issued under a secret key that is no longer valid'],
    ]);
    expect(resolutions[5].body.results).toMatchObject({ password: secrets.redirectedPassword, apiKey: secrets.redirectedApiKey });

    // Scoped keys: made (and made again by a retry), used, refused for their scope, their address and their checksum, deleted.
    const rootKey = revoked.body.results.secretKey as string;
    const makeKey = (body: unknown) =>
      t.post('/api/v1/client/keys', { headers: { secretKey: rootKey, 'idempotency-key': JSON.stringify(body) }, body });
    const reader = await makeKey({ name: 'reader', scopes: ['client:read'] });
    const readerAgain = await makeKey({ name: 'reader', scopes: ['client:read'] });
    const elsewhere = await makeKey({ name: 'elsewhere', scopes: ['client:read'], allowedSources: ['192.0.2.0/24'] });
    const readerKey = reader.body.results.secretKey as string;
    const elsewhereKey = elsewhere.body.results.secretKey as string;
    const badChecksum = `${readerKey.slice(0, -6)}${readerKey.endsWith('000000') ? '111111' : '000000'}`;
    Object.assign(secrets, {
      scopedKey: readerKey,
      scopedKeyDigest: sha256Hex(readerKey),
      elsewhereScopedKey: elsewhereKey,
      elsewhereScopedKeyDigest: sha256Hex(elsewhereKey),
      badChecksumScopedKey: badChecksum,
    });
    const scopedUses = [
      await t.post('/api/client/get/secretKey', { headers: { secretKey: readerKey } }),
      await t.post('/api/sms-config/add', { headers: { secretKey: readerKey }, body: provider }),
      await t.post('/api/client/get/secretKey', { headers: { secretKey: elsewhereKey } }),
      await t.post('/api/client/get/secretKey', { headers: { secretKey: badChecksum } }),
      await t.request('DELETE', `/api/v1/client/keys/${reader.body.results.keyId}`, { headers: { secretKey: rootKey } }),
    ];
    expect([reader.status, readerAgain.raw === reader.raw, elsewhere.status, ...scopedUses.map((answer) => answer.status)]).toEqual([
      200,
      true,
      200,
      200,
      403,
      403,
      404,
      200,
    ]);

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
