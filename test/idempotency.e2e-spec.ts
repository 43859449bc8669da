import { createHash } from 'node:crypto';
import { parseEncryptionKeys } from '../src/config/encryption-keys';
import { SecretSealer } from '../src/crypto/secret-sealer';
import { IdempotencySweeper } from '../src/idempotency/idempotency-sweeper';
import { idempotentAnswerSealContext } from '../src/idempotency/idempotent-answer-seal-context';
import { Resealer } from '../src/reseal/resealer';
import { SealedColumnRepository, resealStatements } from '../src/reseal/sealed-column.repository';
import { SEALED_COLUMNS } from '../src/reseal/sealed-columns';
import { ADMIN_API_KEY, KEY_A, KEY_B, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
/** Add SMS configuration with a provider password and apiKey in its body, sent with an Idempotency-Key. */
const addSmsConfig = (t: TestApp, secretKey: string, key: string, body = validSmsConfig()) =>
  t.post('/api/sms-config/add', { headers: { secretKey, 'idempotency-key': key }, body });

describe('Idempotency-Key', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());
  beforeEach(async () => t.reset());

  const addClient = (key: string, body: Record<string, unknown> = { appName: 'Retried', appUrl: 'https://r.example.com', isHost: false }) =>
    t.post('/api/client/add', { headers: { ...ADMIN, 'idempotency-key': key }, body });
  const count = async (table: string) => Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);

  it('should answer a retry with the first answer, byte for byte, marked replayed, and do nothing twice', async () => {
    const first = await addClient('add-client-1');
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await addClient('add-client-1');
    expect(retry.status).toBe(200);
    expect(retry.raw).toBe(first.raw);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(await count('client')).toBe(1);
    expect((await t.get('/api/v1/audit-events?action=client.created', ADMIN)).body.results.items).toHaveLength(1);
    // Without the header, the same body is a new request.
    expect(
      (await t.post('/api/client/add', { headers: ADMIN, body: { appName: 'Retried', appUrl: 'https://r.example.com', isHost: false } }))
        .status,
    ).toBe(200);
    expect(await count('client')).toBe(2);
  });

  it('should refuse the key with another body or on another route (422), and keep the first answer', async () => {
    const first = await addClient('reused');
    const other = await addClient('reused', { appName: 'Other', appUrl: 'https://r.example.com', isHost: false });
    expect(other.body).toEqual({ status: 422, error: 'Idempotency-Key was used with a different request' });
    const sameFieldsOtherBytes = await t.post('/api/client/add', {
      headers: { ...ADMIN, 'idempotency-key': 'reused', 'content-type': 'application/json' },
      payload: '{"appName": "Retried", "appUrl": "https://r.example.com", "isHost": false}',
    });
    expect(sameFieldsOtherBytes.status).toBe(422);
    expect((await t.post('/api/v1/clients/1/secret-key/rotate', { headers: { ...ADMIN, 'idempotency-key': 'reused' } })).status).not.toBe(
      200,
    );
    expect((await addClient('reused')).raw).toBe(first.raw);
    expect(await count('client')).toBe(1);
  });

  it('should refuse a header that is empty, too long or not visible ASCII with 400', async () => {
    for (const key of ['', 'x'.repeat(256), 'with space', 'clé']) {
      const answer = await t.post('/api/client/add', {
        headers: { ...ADMIN, 'idempotency-key': key },
        body: { appName: 'a', appUrl: 'https://a.example.com', isHost: false },
      });
      expect({ key, answer: answer.body }).toEqual({
        key,
        answer: { status: 400, error: 'Idempotency-Key must be 1 to 255 visible ASCII characters, sent once' },
      });
    }
    expect((await addClient('x'.repeat(255))).status).toBe(200);
    expect(await count('client')).toBe(1);
  });

  it('should run two identical requests sent at once only once', async () => {
    const secretKey = await t.addClient();
    const send = () => t.post('/api/sms-config/add', { headers: { secretKey, 'idempotency-key': 'at-once' }, body: validSmsConfig() });
    const answers = await Promise.all([send(), send(), send(), send()]);
    for (const answer of answers) {
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 409) expect(answer.body).toEqual({ status: 409, error: 'A request with this Idempotency-Key is in progress' });
    }
    const succeeded = answers.filter((answer) => answer.status === 200);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(new Set(succeeded.map((answer) => answer.raw)).size).toBe(1);
    expect(await count('sms_config')).toBe(1);
    expect((await t.get('/api/v1/audit-events?action=sms-config.created', ADMIN)).body.results.items).toHaveLength(1);
    const retry = await send();
    expect(retry.raw).toBe(succeeded[0].raw);
  });

  it('should keep only successes: a request refused with 400 may be retried with the same key', async () => {
    const secretKey = await t.addClient();
    const headers = { secretKey, 'idempotency-key': 'fix-and-retry' };
    expect((await t.post('/api/sms-config/add', { headers, body: validSmsConfig({ smsApi: 'not a url' }) })).status).toBe(400);
    const fixed = await t.post('/api/sms-config/add', { headers, body: validSmsConfig() });
    expect(fixed.status).toBe(200);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(await count('sms_config')).toBe(1);
  });

  it('should scope keys to the credential: another client with the same key runs its own request', async () => {
    const mine = await t.addClient({ appName: 'mine' });
    const theirs = await t.addClient({ appName: 'theirs' });
    for (const secretKey of [mine, theirs]) {
      const answer = await t.post('/api/sms-config/add', {
        headers: { secretKey, 'idempotency-key': 'shared-key' },
        body: validSmsConfig(),
      });
      expect(answer.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(await count('sms_config')).toBe(2);
  });

  it('should replay a retried rotation though the key that sent it is now the previous one, and keep the new key sealed', async () => {
    const key = await t.addClient();
    const headers = { secretKey: key, 'idempotency-key': 'rotate-once' };
    const first = await t.post('/api/v1/client/secret-key/rotate', { headers, body: { graceSeconds: 3600 } });
    expect(first.status).toBe(200);
    const retry = await t.post('/api/v1/client/secret-key/rotate', { headers, body: { graceSeconds: 3600 } });
    expect(retry.status).toBe(200);
    expect(retry.raw).toBe(first.raw);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    // The new key may replay it too: the scope is the client.
    const newKey = first.body.results.secretKey as string;
    expect(
      (await t.post('/api/v1/client/secret-key/rotate', { headers: { ...headers, secretKey: newKey }, body: { graceSeconds: 3600 } })).raw,
    ).toBe(first.raw);
    expect((await t.get('/api/v1/audit-events?action=client.secret-key.rotated', ADMIN)).body.results.items).toHaveLength(1);
    const stored = JSON.stringify(await t.dataSource.query('SELECT * FROM idempotent_request'));
    expect(stored).not.toContain(newKey);
    expect(stored).toMatch(/"answer_sealed":"keyA:v2:/);
  });

  it('should forget an answer after 24 h: the sweeper deletes it, and the key runs a new request', async () => {
    await addClient('day-old');
    await t.dataSource.query("UPDATE idempotent_request SET expires_at = '2000-01-01 00:00:00.000'");
    await addClient('expired-not-swept');
    await t.dataSource.query(
      "UPDATE idempotent_request SET expires_at = '2000-01-01 00:00:00.000' WHERE idempotency_key = 'expired-not-swept'",
    );
    // An expired answer is not replayed, even before the sweeper comes.
    expect((await addClient('expired-not-swept')).headers['idempotent-replayed']).toBeUndefined();
    expect(await count('client')).toBe(3);
    expect(await t.app.get(IdempotencySweeper).sweep()).toBe(1);
    expect(await t.dataSource.query('SELECT idempotency_key AS k FROM idempotent_request')).toEqual([{ k: 'expired-not-swept' }]);
  });

  it('should take over a key whose request was abandoned (its instance died before answering)', async () => {
    // A claim made for this very request, as an instance that died mid-request leaves it: no answer, claim lapsed.
    const first = await addClient('abandoned');
    await t.dataSource.query(
      `UPDATE idempotent_request SET status_code = NULL, answer_sealed = NULL, claim = 'dead', claimed_until = '2000-01-01 00:00:00.000'`,
    );
    await t.dataSource.query('DELETE FROM client');
    const taken = await addClient('abandoned');
    expect(taken.status).toBe(200);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();
    expect(taken.body.results.secretKey).not.toBe(first.body.results.secretKey);
    expect(await count('client')).toBe(1);
    expect(await t.dataSource.query("SELECT status_code AS s FROM idempotent_request WHERE idempotency_key = 'abandoned'")).toEqual([
      { s: 200 },
    ]);
    expect((await addClient('abandoned')).raw).toBe(taken.raw);
  });

  it('should still replay, within its 24 h, a request kept before digests were keyed (a plain SHA-256, no key id)', async () => {
    const secretKey = await t.addClient();
    const first = await addSmsConfig(t, secretKey, 'kept-by-an-old-release');
    // The row as the release before keyed digests wrote it.
    const request = `POST /api/sms-config/add\n${JSON.stringify(validSmsConfig())}`;
    await t.dataSource.query('UPDATE idempotent_request SET request_digest = ?, request_digest_key_id = NULL, request_sealed = NULL', [
      sha256Hex(request),
    ]);
    const retry = await addSmsConfig(t, secretKey, 'kept-by-an-old-release');
    expect(retry.status).toBe(first.status);
    expect(retry.raw).toBe(first.raw);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await addSmsConfig(t, secretKey, 'kept-by-an-old-release', validSmsConfig({ password: 'another' }))).status).toBe(422);
    expect(await count('sms_config')).toBe(1);
  });

  describe('an answer holding a new secret key (add client, both rotations)', () => {
    const EXPIRED = { status: 422, error: 'Idempotency-Key has expired for an answer holding a secret key' };
    const rotateOwn = (secretKey: string, key: string) =>
      t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey, 'idempotency-key': key }, body: { graceSeconds: 3600 } });
    const rotateAsAdmin = (clientId: number, key: string) =>
      t.post(`/api/v1/clients/${clientId}/secret-key/rotate`, {
        headers: { ...ADMIN, 'idempotency-key': key },
        body: { graceSeconds: 60 },
      });
    const replays = async () => (await t.get('/api/v1/audit-events?action=client.secret-key.replayed', ADMIN)).body.results.items;
    const clientIdByKey = async (secretKey: string): Promise<number> => {
      const [row] = await t.dataSource.query('SELECT id FROM client WHERE secret_key_digest = ?', [sha256Hex(secretKey)]);
      return Number(row.id);
    };
    /** As 10 minutes after the first answer: the row's window moved into the past (the service reads the time at replay). */
    const tenMinutesLater = (key: string) =>
      t.dataSource.query("UPDATE idempotent_request SET replayable_until = '2000-01-01 00:00:00.000' WHERE idempotency_key = ?", [key]);
    /** The row's status and its answer as the previous release would replay it (it opens and sends what is kept). */
    const keptAnswer = async (key: string) => {
      const [row] = await t.dataSource.query(
        'SELECT scope, answer_sealed AS a, status_code AS s FROM idempotent_request WHERE idempotency_key = ?',
        [key],
      );
      return {
        s: Number(row.s),
        answer: t.app.get(SecretSealer).open(row.a as string, idempotentAnswerSealContext(row.scope as string, key)),
      };
    };
    const EXPIRED_TEXT = JSON.stringify(EXPIRED);

    it('should replay it byte for byte within 10 minutes, each replay audited for its client and never published', async () => {
      const added = await addClient('add-secret');
      const clientId = await clientIdByKey(added.body.results.secretKey as string);
      const addReplay = await addClient('add-secret');
      expect(addReplay.raw).toBe(added.raw);
      expect(addReplay.headers['idempotent-replayed']).toBe('true');
      const firstKey = added.body.results.secretKey as string;
      const rotated = await rotateOwn(firstKey, 'rotate-own-secret');
      const ownReplay = await rotateOwn(firstKey, 'rotate-own-secret');
      expect(ownReplay.raw).toBe(rotated.raw);
      const adminRotated = await rotateAsAdmin(clientId, 'rotate-admin-secret');
      const adminReplay = await rotateAsAdmin(clientId, 'rotate-admin-secret');
      expect(adminReplay.raw).toBe(adminRotated.raw);
      expect(await count('client')).toBe(1);
      expect((await t.get('/api/v1/audit-events?action=client.secret-key.rotated', ADMIN)).body.results.items).toHaveLength(2);

      const entry = (actor: string, replay: { headers: Record<string, unknown> }) => ({
        eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        occurredAt: expect.any(String),
        action: 'client.secret-key.replayed',
        actor,
        clientId,
        smsConfigId: null,
        requestId: replay.headers['x-request-id'],
        callerRequestId: null,
        changed: [],
        details: null,
        sourceAddress: '127.0.0.1',
        userAgent: 'lightMyRequest',
      });
      const adminActor = (await t.get('/api/v1/audit-events?action=client.created', ADMIN)).body.results.items[0].actor as string;
      expect(await replays()).toEqual([
        entry(adminActor, adminReplay),
        entry(`client:${clientId}`, ownReplay),
        entry(adminActor, addReplay),
      ]);
      // Audited, not a domain event: written as nothing for the relay to publish.
      expect(
        await t.dataSource.query("SELECT unpublished, published_at AS p FROM audit_event WHERE action = 'client.secret-key.replayed'"),
      ).toEqual(Array(3).fill({ unpublished: 0, p: null }));
    });

    it('should refuse the same request after 10 minutes (422), run nothing again and keep only the refusal, which the previous release replays', async () => {
      const added = await addClient('add-expiring');
      const firstKey = added.body.results.secretKey as string;
      const clientId = await clientIdByKey(firstKey);
      const rotated = await rotateOwn(firstKey, 'rotate-own-expiring');
      const newKey = rotated.body.results.secretKey as string;
      const adminRotated = await rotateAsAdmin(clientId, 'rotate-admin-expiring');
      const adminKey = adminRotated.body.results.secretKey as string;
      for (const key of ['add-expiring', 'rotate-own-expiring', 'rotate-admin-expiring']) await tenMinutesLater(key);

      expect((await addClient('add-expiring')).body).toEqual(EXPIRED);
      // The own rotation, retried with the key that sent it (now the previous one) or with the new key's scope.
      expect((await rotateOwn(newKey, 'rotate-own-expiring')).body).toEqual(EXPIRED);
      expect((await rotateAsAdmin(clientId, 'rotate-admin-expiring')).body).toEqual(EXPIRED);
      expect((await addClient('add-expiring')).body).toEqual(EXPIRED);

      expect(await count('client')).toBe(1);
      expect((await t.get('/api/v1/audit-events?action=client.secret-key.rotated', ADMIN)).body.results.items).toHaveLength(2);
      expect(await replays()).toEqual([]);
      // The key the admin rotation gave is still the client's: nothing was rotated again.
      expect(await clientIdByKey(adminKey)).toBe(clientId);
      const stored = JSON.stringify(await t.dataSource.query('SELECT * FROM idempotent_request'));
      for (const key of ['add-expiring', 'rotate-own-expiring', 'rotate-admin-expiring']) {
        expect(await keptAnswer(key)).toEqual({ s: 422, answer: EXPIRED_TEXT });
      }
      for (const secret of [firstKey, newKey, adminKey]) expect(stored).not.toContain(secret);
      // Another request under the key is still a reuse of it.
      expect((await addClient('add-expiring', { appName: 'Other', appUrl: 'https://r.example.com', isHost: false })).body).toEqual({
        status: 422,
        error: 'Idempotency-Key was used with a different request',
      });
    });

    it('should have the sweeper delete the kept secret once past 10 minutes, while other answers replay for 24 h', async () => {
      const added = await addClient('add-swept');
      const secretKey = added.body.results.secretKey as string;
      const smsAdded = await addSmsConfig(t, secretKey, 'sms-kept');
      expect(smsAdded.status).toBe(200);
      const sweeper = t.app.get(IdempotencySweeper);
      expect(await sweeper.sweep(new Date(Date.now() + 9 * 60_000))).toBe(0);
      expect((await addClient('add-swept')).raw).toBe(added.raw);
      // Eleven minutes on: the secret goes, the configuration's answer (no secret key) stays for its 24 h.
      expect(await sweeper.sweep(new Date(Date.now() + 11 * 60_000))).toBe(1);
      expect(await keptAnswer('add-swept')).toEqual({ s: 422, answer: EXPIRED_TEXT });
      expect(await keptAnswer('sms-kept')).toEqual({ s: 200, answer: smsAdded.raw });
      expect(await sweeper.sweep(new Date(Date.now() + 12 * 60_000))).toBe(0);
      expect((await addClient('add-swept')).body).toEqual(EXPIRED);
      const smsReplay = await addSmsConfig(t, secretKey, 'sms-kept');
      expect(smsReplay.raw).toBe(smsAdded.raw);
      expect(smsReplay.headers['idempotent-replayed']).toBe('true');
      expect(
        await t.dataSource.query('SELECT replayable_until AS r FROM idempotent_request WHERE idempotency_key = ?', ['sms-kept']),
      ).toEqual([{ r: null }]);
      expect(await count('client')).toBe(1);
      expect(await count('sms_config')).toBe(1);
    });
  });

  it('should answer 409 while a claim is held by a request still running', async () => {
    await addClient('held');
    await t.dataSource.query(
      "UPDATE idempotent_request SET status_code = NULL, answer_sealed = NULL, claimed_until = '2999-01-01 00:00:00.000'",
    );
    expect((await addClient('held')).body).toEqual({ status: 409, error: 'A request with this Idempotency-Key is in progress' });
  });
});

/**
 * What is kept to recognise a retry is an HMAC under a subkey of the first encryption key and the request's SHA-256
 * sealed, never a plain hash of a body that holds a password: a copy of the database gives no way to test guesses of it.
 */
describe('Idempotency-Key: the kept request digest', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('should keep the same request as a different 64-hex HMAC under each key, named by it, and not as its SHA-256', async () => {
    const body = validSmsConfig();
    const digests: string[] = [];
    for (const [encryptionKeys, keyId] of [
      [KEY_A, 'keyA'],
      [KEY_B, 'keyB'],
    ]) {
      t = await startTestApp({ ENCRYPTION_KEYS: encryptionKeys });
      expect((await addSmsConfig(t, await t.addClient(), 'one-request', body)).status).toBe(200);
      const [row] = await t.dataSource.query('SELECT request_digest AS digest, request_digest_key_id AS keyId FROM idempotent_request');
      expect(row).toEqual({ digest: expect.stringMatching(/^[0-9a-f]{64}$/), keyId });
      for (const plain of [JSON.stringify(body), `POST /api/sms-config/add\n${JSON.stringify(body)}`]) {
        expect(row.digest).not.toBe(sha256Hex(plain));
      }
      digests.push(row.digest);
      await t.close();
      t = undefined;
    }
    expect(digests[0]).not.toBe(digests[1]);
  });

  it('should replay a request kept under the previous first key once a new key is put first, and refuse another under its key', async () => {
    const databaseUrl = await testDatabaseUrl();
    t = await startTestApp({ DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: KEY_A });
    const secretKey = await t.addClient();
    const first = await addSmsConfig(t, secretKey, 'before-rotation');
    expect(first.status).toBe(200);
    await t.close();

    t = await startTestApp({ DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: `${KEY_B},${KEY_A}` }, { keepData: true });
    const retry = await addSmsConfig(t, secretKey, 'before-rotation');
    expect(retry.status).toBe(first.status);
    expect(retry.raw).toBe(first.raw);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await addSmsConfig(t, secretKey, 'before-rotation', validSmsConfig({ password: 'another' }))).body).toEqual({
      status: 422,
      error: 'Idempotency-Key was used with a different request',
    });
    expect(Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM sms_config'))[0].n)).toBe(1);
    // A new request is kept under the new first key.
    expect((await addSmsConfig(t, secretKey, 'after-rotation')).status).toBe(200);
    expect(
      await t.dataSource.query(
        'SELECT idempotency_key AS k, request_digest_key_id AS keyId FROM idempotent_request ORDER BY idempotency_key',
      ),
    ).toEqual([
      { k: 'after-rotation', keyId: 'keyB' },
      { k: 'before-rotation', keyId: 'keyA' },
    ]);
  });

  it('should replay a request kept under a key that reseal retired, through its sealed SHA-256, and refuse another under its key', async () => {
    const databaseUrl = await testDatabaseUrl();
    t = await startTestApp({ DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: KEY_A });
    const secretKey = await t.addClient();
    const first = await addSmsConfig(t, secretKey, 'across-retirement');
    expect(first.status).toBe(200);
    await t.close();

    // keyB put first, everything sealed moved to it, then keyA removed: the kept HMAC stays under keyA.
    t = await startTestApp({ DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: `${KEY_B},${KEY_A}` }, { keepData: true });
    const sql = resealStatements(t.dataSource);
    const outcome = await new Resealer(
      SEALED_COLUMNS.map((column) => new SealedColumnRepository(sql, column)),
      new SecretSealer(parseEncryptionKeys(`${KEY_B},${KEY_A}`)),
      ['keyB', 'keyA'],
      () => {},
    ).run();
    expect(outcome).toMatchObject({ failed: 0, remaining: [{ keyId: 'keyA', count: 0 }], stopped: false });
    await t.close();
    t = await startTestApp({ DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: KEY_B }, { keepData: true });

    const [row] = await t.dataSource.query('SELECT request_digest_key_id AS keyId, request_sealed AS sealed FROM idempotent_request');
    expect(row).toEqual({ keyId: 'keyA', sealed: expect.stringMatching(/^keyB:v2:/) });
    for (const plain of [JSON.stringify(validSmsConfig()), `POST /api/sms-config/add\n${JSON.stringify(validSmsConfig())}`]) {
      expect(row.sealed).not.toBe(sha256Hex(plain));
      expect(row.sealed).not.toContain(sha256Hex(plain));
    }
    const retry = await addSmsConfig(t, secretKey, 'across-retirement');
    expect(retry.status).toBe(first.status);
    expect(retry.raw).toBe(first.raw);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await addSmsConfig(t, secretKey, 'across-retirement', validSmsConfig({ password: 'another' }))).body).toEqual({
      status: 422,
      error: 'Idempotency-Key was used with a different request',
    });
    expect(Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM sms_config'))[0].n)).toBe(1);
  });
});
