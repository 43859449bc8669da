import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClientCache } from '../src/client-cache/client-cache';
import { GetClientRepository } from '../src/client/get-client.repository';
import { KeyUsageFlusher } from '../src/key-usage/key-usage-flusher';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const SCOPED_KEY = /^rk_[0-9A-Za-z]{46}$/;
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

type Scope = 'client:read' | 'sms-config:write' | 'dispatch';

describe('Scoped keys', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ KEY_USAGE_FLUSH_MS: '600000' });
    await approveProviderHosts(t);
  });
  afterAll(async () => t.close());
  beforeEach(async () => t.reset());

  const makeKey = (secretKey: string, body: Record<string, unknown>) => t.post('/api/v1/client/keys', { headers: { secretKey }, body });
  const listKeys = (secretKey: string) => t.get('/api/v1/client/keys', { secretKey });
  const deleteKey = (secretKey: string, keyId: number) => t.send('DELETE', `/api/v1/client/keys/${keyId}`, { headers: { secretKey } });
  const getClient = (secretKey: string) => t.post('/api/client/get/secretKey', { headers: { secretKey } });
  /** A client's root key and id. */
  async function newClient(): Promise<{ rootKey: string; clientId: number }> {
    const appName = `keys-${Math.random().toString(36).slice(2)}`;
    const rootKey = await t.addClient({ appName });
    const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    return { rootKey, clientId };
  }
  async function scopedKey(rootKey: string, scopes: Scope[], extra: Record<string, unknown> = {}) {
    const made = await makeKey(rootKey, { name: scopes.join(' '), scopes, ...extra });
    expect(made.status).toBe(200);
    return made.body.results as { keyId: number; secretKey: string };
  }

  describe('making, listing and deleting', () => {
    it('should show the key once, in the scanners’ shape, with what it may do, and store only its digest', async () => {
      const rootKey = await t.addClient();
      const made = await makeKey(rootKey, {
        name: 'billing-service',
        scopes: ['dispatch', 'client:read'],
        expiresAt: inHours(2),
        allowedSources: ['203.0.113.0/24', '2001:0db8:0000::/48', '198.51.100.7'],
      });
      expect(made.status).toBe(200);
      expect(made.body.results).toEqual({
        keyId: expect.any(Number),
        name: 'billing-service',
        scopes: ['client:read', 'dispatch'],
        expiresAt: expect.stringMatching(ISO_UTC),
        allowedSources: ['203.0.113.0/24', '2001:db8::/48', '198.51.100.7'],
        createdAt: expect.stringMatching(ISO_UTC),
        secretKey: expect.stringMatching(SCOPED_KEY),
      });
      expect(Object.keys(made.body.results)).toEqual(['keyId', 'name', 'scopes', 'expiresAt', 'allowedSources', 'createdAt', 'secretKey']);
      const { secretKey } = made.body.results;
      const stored = JSON.stringify(await t.dataSource.query('SELECT * FROM client_key'));
      expect(stored).not.toContain(secretKey);
      expect(stored).toContain(sha256(secretKey));
      // An offset is answered in UTC.
      const offset = await makeKey(rootKey, { name: 'offset', scopes: ['client:read'], expiresAt: inHours(1).replace('Z', '+00:00') });
      expect(offset.body.results.expiresAt).toMatch(ISO_UTC);
    });

    it('should list keys by keyId with keyStart, last use and expiry, never a key or a digest', async () => {
      const rootKey = await t.addClient();
      const first = await scopedKey(rootKey, ['client:read']);
      const second = await scopedKey(rootKey, ['sms-config:write'], { expiresAt: inHours(1) });
      const listed = await listKeys(rootKey);
      expect(listed.status).toBe(200);
      expect(listed.body.results.nextCursor).toBeNull();
      expect(listed.body.results.items).toEqual([
        {
          keyId: first.keyId,
          name: 'client:read',
          scopes: ['client:read'],
          expiresAt: null,
          allowedSources: null,
          createdAt: expect.stringMatching(ISO_UTC),
          keyStart: first.secretKey.slice(0, 7),
          lastUsedAt: null,
          lastUsedFrom: null,
          expired: false,
        },
        expect.objectContaining({ keyId: second.keyId, keyStart: second.secretKey.slice(0, 7), expired: false }),
      ]);
      expect(listed.raw).not.toContain(first.secretKey);
      expect(listed.raw).not.toContain(sha256(first.secretKey));
      const page = await t.get('/api/v1/client/keys?limit=1', { secretKey: rootKey });
      expect(page.body.results.items.map((key: { keyId: number }) => key.keyId)).toEqual([first.keyId]);
      const next = await t.get(`/api/v1/client/keys?limit=1&cursor=${page.body.results.nextCursor}`, { secretKey: rootKey });
      expect(next.body.results.items.map((key: { keyId: number }) => key.keyId)).toEqual([second.keyId]);
    });

    it('should refuse a 21st key, expired ones counted, and take one again once a key is deleted', async () => {
      const rootKey = await t.addClient();
      const keys = [];
      for (let index = 0; index < 20; index++) keys.push(await scopedKey(rootKey, ['client:read']));
      // One of them past its end: still counted until deleted.
      await t.dataSource.query('UPDATE client_key SET expires_at = ? WHERE id = ?', ['2020-01-01 00:00:00.000', keys[0].keyId]);
      expect((await makeKey(rootKey, { name: 'one too many', scopes: ['client:read'] })).body).toEqual({
        status: 409,
        error: 'a client has at most 20 scoped keys',
      });
      expect((await listKeys(rootKey)).body.results.items[0]).toMatchObject({ keyId: keys[0].keyId, expired: true });
      expect((await deleteKey(rootKey, keys[0].keyId)).body).toEqual({ status: 200, results: { keyId: keys[0].keyId, deleted: true } });
      expect((await makeKey(rootKey, { name: 'in its place', scopes: ['client:read'] })).status).toBe(200);
    });

    it('should make a deleted key unknown at once, and answer 404 for another client’s key', async () => {
      const rootKey = await t.addClient();
      const other = await t.addClient();
      const key = await scopedKey(rootKey, ['client:read']);
      expect((await getClient(key.secretKey)).status).toBe(200);
      expect((await deleteKey(other, key.keyId)).body).toEqual({ status: 404, error: 'Scoped key not found' });
      expect((await deleteKey(rootKey, key.keyId)).status).toBe(200);
      expect((await getClient(key.secretKey)).body).toEqual({ status: 404, error: 'No client matches the secretKey' });
      expect((await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: key.secretKey } })).body).toEqual({
        status: 401,
        error: 'secretKey is not valid',
      });
      expect((await deleteKey(rootKey, key.keyId)).status).toBe(404);
    });

    it.each([
      [{ scopes: ['client:read'] }, 'name must be a string'],
      [{ name: '', scopes: ['client:read'] }, 'name'],
      [{ name: 'tab\there', scopes: ['client:read'] }, 'name'],
      [{ name: 'x'.repeat(101), scopes: ['client:read'] }, 'name'],
      [{ name: 'k' }, 'scopes must be a non-empty list of client:read, sms-config:write, dispatch'],
      [{ name: 'k', scopes: [] }, 'scopes must be a non-empty list of client:read, sms-config:write, dispatch'],
      [{ name: 'k', scopes: ['admin'] }, 'scopes[0] must be one of client:read, sms-config:write, dispatch'],
      [{ name: 'k', scopes: ['dispatch', 'dispatch'] }, 'scopes[1] repeats scopes[0] (dispatch)'],
      [{ name: 'k', scopes: ['client:read'], expiresAt: '2027-01-01' }, 'expiresAt must be null or an RFC 3339 instant'],
      [{ name: 'k', scopes: ['client:read'], expiresAt: new Date(Date.now() + 30_000).toISOString() }, 'expiresAt must be at least 60 s'],
      [{ name: 'k', scopes: ['client:read'], allowedSources: [] }, 'allowedSources must be null or a list of 1 to 20'],
      [{ name: 'k', scopes: ['client:read'], allowedSources: ['10.0.0.1/7'] }, 'allowedSources[0] covers too many addresses'],
      [{ name: 'k', scopes: ['client:read'], allowedSources: ['10.0.0.1/24'] }, 'allowedSources[0] has bits set below its prefix /24'],
      [{ name: 'k', scopes: ['client:read'], allowedSources: ['::ffff:10.0.0.1'] }, 'allowedSources[0] is an IPv4-mapped IPv6 address'],
      [
        { name: 'k', scopes: ['dispatch'], allowedSources: ['10.0.0.1'] },
        'allowedSources must be null for a key whose only scope is dispatch',
      ],
      [{ name: 'k', scopes: ['client:read'], keyId: 3 }, 'keyId'],
    ])('should refuse %j with a 400 naming the field', async (body, named) => {
      const rootKey = await t.addClient();
      const answer = await makeKey(rootKey, body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain(named);
      expect(await t.dataSource.query('SELECT id FROM client_key')).toEqual([]);
    });

    it('should let the admin make, list and delete a client’s keys, and answer 404 for a client that does not exist', async () => {
      const { clientId } = await newClient();
      const made = await t.post(`/api/v1/clients/${clientId}/keys`, {
        headers: ADMIN,
        body: { name: 'from the admin', scopes: ['client:read'] },
      });
      expect(made.status).toBe(200);
      expect(made.body.results.secretKey).toMatch(SCOPED_KEY);
      expect((await getClient(made.body.results.secretKey)).status).toBe(200);
      const listed = await t.get(`/api/v1/clients/${clientId}/keys`, ADMIN);
      expect(listed.body.results.items.map((key: { keyId: number }) => key.keyId)).toEqual([made.body.results.keyId]);
      expect((await t.send('DELETE', `/api/v1/clients/${clientId}/keys/${made.body.results.keyId}`, { headers: ADMIN })).body).toEqual({
        status: 200,
        results: { keyId: made.body.results.keyId, deleted: true },
      });
      expect((await getClient(made.body.results.secretKey)).status).toBe(404);
      const missing = clientId + 1000;
      expect(
        (await t.post(`/api/v1/clients/${missing}/keys`, { headers: ADMIN, body: { name: 'k', scopes: ['client:read'] } })).body,
      ).toEqual({
        status: 404,
        error: 'Client not found',
      });
      expect((await t.get(`/api/v1/clients/${missing}/keys`, ADMIN)).status).toBe(404);
    });

    it('should audit each key made and deleted, naming the key, never holding it', async () => {
      const { rootKey, clientId } = await newClient();
      const key = await scopedKey(rootKey, ['sms-config:write', 'client:read']);
      await deleteKey(rootKey, key.keyId);
      const entries = (await t.get(`/api/v1/audit-events?clientId=${clientId}`, ADMIN)).body.results.items as Array<
        Record<string, unknown>
      >;
      const keyEntries = entries.filter((entry) => String(entry.action).startsWith('client.key-'));
      expect(keyEntries.map((entry) => entry.action).sort()).toEqual(['client.key-created', 'client.key-deleted']);
      for (const entry of keyEntries) {
        expect(entry).toMatchObject({
          actor: `client:${clientId}`,
          changed: [],
          details: { keyId: key.keyId, name: 'sms-config:write client:read', scopes: ['client:read', 'sms-config:write'] },
        });
      }
      expect(JSON.stringify(entries)).not.toContain(key.secretKey);
    });
  });

  describe('what each scope reaches', () => {
    /** Every operation a client's key opens (as the document names it), with the scope it needs; ids are the client's own. */
    const routes: Array<[string, Scope | 'root', (secretKey: string, smsConfigId: number) => Promise<{ status: number; body: any }>]> = [
      ['post /api/client/get/secretKey', 'client:read', (secretKey) => getClient(secretKey)],
      [
        'post /api/sms-config/get-all-by-client-id',
        'client:read',
        (secretKey) => t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } }),
      ],
      ['get /api/v1/sms-configs/{smsConfigId}', 'client:read', (secretKey, id) => t.get(`/api/v1/sms-configs/${id}`, { secretKey })],
      [
        'post /api/sms-config/add',
        'sms-config:write',
        (secretKey) => t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() }),
      ],
      [
        'patch /api/v1/sms-configs/{smsConfigId}',
        'sms-config:write',
        (secretKey, id) => t.send('PATCH', `/api/v1/sms-configs/${id}`, { headers: { secretKey }, body: { senderId: 'NEWSENDER' } }),
      ],
      [
        'post /api/v1/sms-configs/{smsConfigId}/verify-api-key',
        'sms-config:write',
        (secretKey, id) => t.post(`/api/v1/sms-configs/${id}/verify-api-key`, { headers: { secretKey } }),
      ],
      [
        'post /api/v1/dispatch/route',
        'dispatch',
        (secretKey) =>
          t.post('/api/v1/dispatch/route', {
            headers: { 'x-api-key': DISPATCHER_API_KEY, secretKey },
            body: { destination: '+447400123456' },
          }),
      ],
      [
        'post /api/v1/client/secret-key/rotate',
        'root',
        (secretKey) => t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey }, body: { graceSeconds: 60 } }),
      ],
      ['post /api/v1/client/keys', 'root', (secretKey) => makeKey(secretKey, { name: 'k', scopes: ['client:read'] })],
      ['get /api/v1/client/keys', 'root', (secretKey) => listKeys(secretKey)],
      ['delete /api/v1/client/keys/{keyId}', 'root', (secretKey) => t.send('DELETE', '/api/v1/client/keys/1', { headers: { secretKey } })],
      [
        'delete /api/v1/sms-configs/{smsConfigId}',
        'sms-config:write',
        (secretKey, id) => t.send('DELETE', `/api/v1/sms-configs/${id}`, { headers: { secretKey } }),
      ],
    ];

    it('should list in the document every operation a client key opens, each with the scope it needs', async () => {
      const document = (await t.get('/docs-json')).body as { paths: Record<string, Record<string, any>> };
      const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => (operation.security ?? []).some((scheme: object) => 'secretKey' in scheme))
          .map(([method, operation]) => [`${method} ${path}`, operation['x-required-scope']]),
      );
      expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(routes.map(([operation, needed]) => [operation, needed])));
    });

    it.each<[Scope]>([['client:read'], ['sms-config:write'], ['dispatch']])(
      'should open to a %s key exactly the routes of its scope, refusing the others with 403 naming the scope',
      async (scope) => {
        const rootKey = await t.addClient();
        expect((await t.post('/api/sms-config/add', { headers: { secretKey: rootKey }, body: validSmsConfig() })).status).toBe(200);
        const [{ smsConfigId }] = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: rootKey } })).body.results;
        const key = await scopedKey(rootKey, [scope]);
        for (const [name, needed, call] of routes) {
          const answer = await call(key.secretKey, smsConfigId);
          if (needed === scope) expect({ name, status: answer.status }).toEqual({ name, status: 200 });
          else
            expect({ name, body: answer.body }).toEqual({
              name,
              body: { status: 403, error: `secretKey does not have the scope ${needed}` },
            });
        }
      },
    );

    it('should keep rotation and the key routes to the current root key: the previous one is refused with scope root', async () => {
      const oldKey = await t.addClient();
      const rotated = await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey: oldKey }, body: { graceSeconds: 600 } });
      const newKey = rotated.body.results.secretKey as string;
      const refused = { status: 403, error: 'secretKey does not have the scope root' };
      expect((await makeKey(oldKey, { name: 'k', scopes: ['client:read'] })).body).toEqual(refused);
      expect((await listKeys(oldKey)).body).toEqual(refused);
      expect((await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey: oldKey } })).body).toEqual(refused);
      expect((await makeKey(newKey, { name: 'k', scopes: ['client:read'] })).status).toBe(200);
      // The previous key still reads.
      expect((await getClient(oldKey)).status).toBe(200);
    });

    it('should name the scoped key as the actor of the changes it makes', async () => {
      const { rootKey, clientId } = await newClient();
      const key = await scopedKey(rootKey, ['sms-config:write']);
      expect((await t.post('/api/sms-config/add', { headers: { secretKey: key.secretKey }, body: validSmsConfig() })).status).toBe(200);
      const created = (await t.get('/api/v1/audit-events?action=sms-config.created', ADMIN)).body.results.items;
      expect(created[0]).toMatchObject({ clientId, actor: `client:${clientId}/key:${key.keyId}` });
    });
  });

  describe('what a key leaves behind', () => {
    const resolve = (verifyApiKey: string) =>
      t.post('/api/v1/sms-configs/resolve', { headers: { 'x-api-key': DISPATCHER_API_KEY }, body: { verifyApiKey } });

    it('should let tokens a scoped key obtained resolve while it exists, and refuse them once it is deleted', async () => {
      const { rootKey } = await newClient();
      const key = await scopedKey(rootKey, ['sms-config:write']);
      const added = await t.post('/api/sms-config/add', { headers: { secretKey: key.secretKey }, body: validSmsConfig() });
      const { verifyApiKey } = added.body.results;
      expect((await resolve(verifyApiKey)).status).toBe(200);
      // The root key's tokens stand whatever happens to a scoped key.
      const [{ smsConfigId }] = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: rootKey } })).body.results;
      const rootToken = (await t.post(`/api/v1/sms-configs/${smsConfigId}/verify-api-key`, { headers: { secretKey: rootKey } })).body
        .results.verifyApiKey;
      expect((await deleteKey(rootKey, key.keyId)).status).toBe(200);
      expect((await resolve(verifyApiKey)).body).toEqual({
        status: 409,
        error: 'verifyApiKey was issued under a secret key that is no longer valid',
      });
      expect((await resolve(rootToken)).status).toBe(200);
    });

    it('should keep an Idempotency-Key per key: the root key’s retry under the same key is not the scoped key’s replay', async () => {
      const { rootKey } = await newClient();
      const key = await scopedKey(rootKey, ['sms-config:write']);
      const add = (secretKey: string) =>
        t.post('/api/sms-config/add', { headers: { secretKey, 'idempotency-key': 'same-key-1' }, body: validSmsConfig() });
      const first = await add(key.secretKey);
      const replay = await add(key.secretKey);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.raw).toBe(first.raw);
      const byRoot = await add(rootKey);
      expect(byRoot.status).toBe(200);
      expect(byRoot.headers['idempotent-replayed']).toBeUndefined();
      expect((await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: rootKey } })).body.results).toHaveLength(2);
    });

    it('should delete every scoped key with a rotation that asks, each audited with the rotation’s actor', async () => {
      const { rootKey, clientId } = await newClient();
      const keys = [await scopedKey(rootKey, ['client:read']), await scopedKey(rootKey, ['dispatch'])];
      expect((await getClient(keys[0].secretKey)).status).toBe(200);
      const rotated = await t.post('/api/v1/client/secret-key/rotate', {
        headers: { secretKey: rootKey },
        body: { graceSeconds: 0, deleteScopedKeys: true },
      });
      expect(rotated.status).toBe(200);
      expect((await getClient(keys[0].secretKey)).status).toBe(404);
      expect((await listKeys(rotated.body.results.secretKey)).body.results.items).toEqual([]);
      const deleted = (await t.get(`/api/v1/audit-events?clientId=${clientId}&action=client.key-deleted`, ADMIN)).body.results.items;
      expect(deleted.map((entry: { details: { keyId: number } }) => entry.details.keyId).sort()).toEqual(keys.map((k) => k.keyId).sort());
      expect(new Set(deleted.map((entry: { actor: string }) => entry.actor))).toEqual(new Set([`client:${clientId}`]));
      // Without the flag, a rotation leaves them.
      const kept = await scopedKey(rotated.body.results.secretKey, ['client:read']);
      const adminRotated = await t.post(`/api/v1/clients/${clientId}/secret-key/rotate`, { headers: ADMIN, body: { graceSeconds: 0 } });
      expect(adminRotated.status).toBe(200);
      expect((await getClient(kept.secretKey)).status).toBe(200);
      expect(
        (await t.post(`/api/v1/clients/${clientId}/secret-key/rotate`, { headers: ADMIN, body: { deleteScopedKeys: 'yes' } })).body,
      ).toEqual({
        status: 400,
        error: 'deleteScopedKeys must be true or false',
      });
    });

    it('should count a scope refusal in the metrics and never as a failed authentication', async () => {
      const { rootKey } = await newClient();
      const key = await scopedKey(rootKey, ['dispatch']);
      for (let attempt = 0; attempt < 5; attempt++) {
        expect((await getClient(key.secretKey)).body).toEqual({ status: 403, error: 'secretKey does not have the scope client:read' });
      }
      expect((await t.get('/metrics')).raw).toMatch(/^secret_key_refusals_total\{reason="key-scope"\} [1-9]/m);
    });

    it('should issue keys the README’s gitleaks rule finds, and no root key nor any other shape', async () => {
      const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
      const rule = /^regex = '''(.+)'''$/m.exec(readme.slice(readme.indexOf('client-registry-scoped-key')));
      expect(rule).not.toBeNull();
      const pattern = new RegExp(rule![1]);
      const { rootKey } = await newClient();
      for (let index = 0; index < 20; index++) {
        const { secretKey } = await scopedKey(rootKey, ['client:read']);
        expect(pattern.exec(`secretKey: ${secretKey}\n`)?.[0]).toBe(secretKey);
        await deleteKey(rootKey, (await listKeys(rootKey)).body.results.items[0].keyId);
      }
      const body = 'A'.repeat(46);
      for (const other of [
        rootKey,
        `sk_${body}`,
        `xk_${body}`,
        `xrk_${body}`,
        `rk_${body.slice(1)}`,
        `rk_${body}A`,
        `rk_${body.slice(1)}-`,
      ]) {
        expect({ other, found: pattern.test(other) }).toEqual({ other, found: false });
      }
    });
  });

  describe('the key itself', () => {
    it('should refuse an rk_ key whose checksum does not match without reading anything', async () => {
      const rootKey = await t.addClient();
      const { secretKey } = await scopedKey(rootKey, ['client:read']);
      const last = secretKey.at(-1)!;
      const forged = secretKey.slice(0, -1) + (last === '0' ? '1' : '0');
      const cache = t.app.get(ClientCache);
      const reads = [
        jest.spyOn(cache, 'lookupEnabled'),
        jest.spyOn(cache, 'lookupOwner'),
        jest.spyOn(cache, 'getOrLoad'),
        jest.spyOn(cache, 'load'),
        jest.spyOn(t.app.get(GetClientRepository), 'findWithSmsConfigsByDigest'),
      ];
      try {
        expect((await getClient(forged)).body).toEqual({ status: 404, error: 'No client matches the secretKey' });
        expect((await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: forged } })).body).toEqual({
          status: 401,
          error: 'secretKey is not valid',
        });
        for (const read of reads) expect(read).not.toHaveBeenCalled();
      } finally {
        for (const read of reads) read.mockRestore();
      }
    });

    it('should make a key unknown at its end, on the cached path too', async () => {
      const rootKey = await t.addClient();
      const key = await scopedKey(rootKey, ['client:read']);
      // An end a test can wait for: the service takes none under 60 s.
      const endsAt = new Date(Date.now() + 1500);
      await t.dataSource.query('UPDATE client_key SET expires_at = ? WHERE id = ?', [
        endsAt.toISOString().slice(0, 23).replace('T', ' '),
        key.keyId,
      ]);
      t.app.get(ClientCache).clear();
      expect((await getClient(key.secretKey)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, endsAt.getTime() - Date.now() + 50));
      expect((await getClient(key.secretKey)).body).toEqual({ status: 404, error: 'No client matches the secretKey' });
      expect((await listKeys(rootKey)).body.results.items[0].expired).toBe(true);
    });

    it('should give a client:read key its client’s changes at once, as the root key sees them, down to the client’s deletion', async () => {
      const { rootKey, clientId } = await newClient();
      const key = await scopedKey(rootKey, ['client:read']);
      expect((await getClient(key.secretKey)).body.results.smsConfig).toBeNull();
      expect((await t.post('/api/sms-config/add', { headers: { secretKey: rootKey }, body: validSmsConfig() })).status).toBe(200);
      expect((await getClient(key.secretKey)).body.results.smsConfig).toHaveLength(1);
      expect((await t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: false } })).status).toBe(200);
      expect((await getClient(key.secretKey)).body).toEqual({ status: 403, error: 'Client is disabled' });
      expect((await t.send('DELETE', `/api/v1/clients/${clientId}`, { headers: ADMIN })).status).toBe(200);
      expect((await getClient(key.secretKey)).status).toBe(404);
      expect(await t.dataSource.query('SELECT id FROM client_key')).toEqual([]);
    });

    it('should echo the scoped key in get-client’s answer and note its use on it, not on the root key', async () => {
      const { rootKey, clientId } = await newClient();
      await t.app.get(KeyUsageFlusher).flush();
      const rootUse = (await t.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results.secretKeyLastUsedAt;
      const key = await scopedKey(rootKey, ['client:read']);
      const answer = await t.post('/api/client/get/secretKey', { headers: { secretKey: key.secretKey }, remoteAddress: '198.51.100.23' });
      expect(answer.body.results.secretKey).toBe(key.secretKey);
      await t.app.get(KeyUsageFlusher).flush();
      const [listed] = (await listKeys(rootKey)).body.results.items;
      expect(listed).toMatchObject({ lastUsedAt: expect.stringMatching(ISO_UTC), lastUsedFrom: '198.51.100.23' });
      // listKeys itself was the root key's use.
      await t.app.get(KeyUsageFlusher).flush();
      const rootAfter = (await t.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results;
      expect(rootAfter.secretKeyLastUsedFrom).not.toBe('198.51.100.23');
      expect(rootAfter.secretKeyLastUsedAt).not.toBe(rootUse);
    });
  });
});

describe('Scoped keys’ allowedSources, behind TRUST_PROXY', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_FAILED_AUTH_PER_IP: '3' });
  });
  afterAll(async () => t.close());

  const getClient = (secretKey: string, forwardedFor: string) =>
    t.post('/api/client/get/secretKey', { headers: { secretKey, 'x-forwarded-for': forwardedFor } });
  const readConfigs = (secretKey: string, forwardedFor: string) =>
    t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey, 'x-forwarded-for': forwardedFor } });
  const NOT_HERE = { status: 403, error: 'secretKey is not allowed from this address' };

  it('should answer from an allowed address or network, ports dropped, and refuse others as failed authentications', async () => {
    const rootKey = await t.addClient();
    const made = await t.post('/api/v1/client/keys', {
      headers: { secretKey: rootKey, 'x-forwarded-for': '192.0.2.200' },
      body: { name: 'office', scopes: ['client:read'], allowedSources: ['203.0.113.0/24', '2001:db8::/32'] },
    });
    const { secretKey } = made.body.results;
    expect((await getClient(secretKey, '203.0.113.9')).status).toBe(200);
    expect((await getClient(secretKey, '203.0.113.10:51234')).status).toBe(200);
    expect((await getClient(secretKey, '[2001:db8::5]:443')).status).toBe(200);
    expect((await readConfigs(secretKey, '203.0.113.11')).status).toBe(200);
    // From outside: refused on get-client (cached) and elsewhere, each counted against the address.
    expect((await getClient(secretKey, '198.51.100.1')).body).toEqual(NOT_HERE);
    expect((await readConfigs(secretKey, '198.51.100.1:80')).body).toEqual(NOT_HERE);
    expect((await getClient(secretKey, '198.51.100.1')).body).toEqual(NOT_HERE);
    expect((await getClient(secretKey, '198.51.100.1')).body).toEqual({
      status: 429,
      error: 'Too many refused credentials from this address, retry later',
    });
    // The root key has no such limit.
    expect((await getClient(rootKey, '198.51.100.2')).status).toBe(200);
    const metrics = (await t.get('/metrics')).raw;
    expect(metrics).toMatch(/^secret_key_refusals_total\{reason="key-source"\} [1-9]/m);
  });
});

describe('Scoped keys under the client’s write limit (RATE_LIMIT_WRITES_PER_CREDENTIAL=3)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_WRITES_PER_CREDENTIAL: '3', RATE_LIMIT_WINDOW_MS: '60000' });
  });
  afterAll(async () => t.close());

  it('should count keys made and deleted, by the root key or the admin, as the client’s writes', async () => {
    const appName = `limited-${Math.random().toString(36).slice(2)}`;
    const rootKey = await t.addClient({ appName });
    const clientId = (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    const body = { name: 'k', scopes: ['client:read'] };
    const made = await t.post('/api/v1/client/keys', { headers: { secretKey: rootKey }, body });
    expect(made.status).toBe(200);
    expect((await t.post(`/api/v1/clients/${clientId}/keys`, { headers: ADMIN, body })).status).toBe(200);
    expect((await t.send('DELETE', `/api/v1/clients/${clientId}/keys/${made.body.results.keyId}`, { headers: ADMIN })).status).toBe(200);
    const tooMany = { status: 429, error: 'Too many changes for this client, retry later' };
    expect((await t.post('/api/v1/client/keys', { headers: { secretKey: rootKey }, body })).body).toEqual(tooMany);
    expect((await t.post(`/api/v1/clients/${clientId}/keys`, { headers: ADMIN, body })).body).toEqual(tooMany);
  });
});
