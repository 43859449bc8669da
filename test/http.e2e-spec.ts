import { OPERATIONS } from './helpers/interface';
import { ADMIN_API_KEY, TestApp, startTestApp } from './helpers/test-app';

/** The routes beyond the five operations, by the credential they need. */
const LIFECYCLE_ROUTES = {
  admin: [
    ['/api/v1/clients', 'get'],
    ['/api/v1/clients/{clientId}', 'get'],
    ['/api/v1/clients/{clientId}', 'patch'],
    ['/api/v1/clients/{clientId}', 'delete'],
    ['/api/v1/clients/{clientId}/secret-key/rotate', 'post'],
    ['/api/v1/audit-events', 'get'],
    ['/api/v1/provider-hosts', 'get'],
    ['/api/v1/provider-hosts', 'post'],
    ['/api/v1/provider-hosts/{providerHostId}', 'delete'],
    ['/api/v1/pumping-ranges', 'get'],
    ['/api/v1/pumping-ranges/{pumpingRangeId}/lift', 'post'],
  ],
  client: [
    ['/api/v1/client/secret-key/rotate', 'post'],
    ['/api/v1/sms-configs/{smsConfigId}', 'get'],
    ['/api/v1/sms-configs/{smsConfigId}', 'patch'],
    ['/api/v1/sms-configs/{smsConfigId}', 'delete'],
    ['/api/v1/sms-configs/{smsConfigId}/verify-api-key', 'post'],
  ],
} as const;

describe('HTTP behaviour shared by every route', () => {
  let t: TestApp;
  const admin = { 'x-api-key': ADMIN_API_KEY };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('should answer 400 in the envelope for malformed JSON', async () => {
    const answer = await t.post('/api/client/add', { headers: { ...admin, 'content-type': 'application/json' }, payload: '{"appName": ' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, error: 'Request body is not valid JSON' });
  });

  it('should answer 400 for prototype-pollution keys', async () => {
    const answer = await t.post('/api/client/add', {
      headers: { ...admin, 'content-type': 'application/json' },
      payload: '{"appName":"a","appUrl":"https://a.example.com","isHost":false,"__proto__":{"polluted":true}}',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, error: 'Request body contains a forbidden key (__proto__ or constructor.prototype)' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('should answer 400 for deeply nested JSON', async () => {
    const payload = '{"appName":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    const answer = await t.post('/api/client/add', { headers: { ...admin, 'content-type': 'application/json' }, payload });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, error: 'Request body is nested deeper than 32 levels' });
  });

  describe('bounded refusals: an object of at most 64 keys, at most 10 fields named', () => {
    const CLIENT_BODY = { appName: 'a', appUrl: 'https://a.example.com', isHost: false };
    const MORE_THAN_64_KEYS = { status: 400, error: 'Request body has an object of more than 64 keys' };
    /** `count` unknown fields named u0, u1... */
    const unknownFields = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`u${index}`, 0]));
    const namedUnknown = (count: number) => Array.from({ length: count }, (_, index) => `property u${index} should not exist`);
    const addClient = (body: unknown) => t.post('/api/client/add', { headers: admin, body });

    it('should refuse a body of 3,500 unknown fields in one short answer, before validation', async () => {
      const payload = JSON.stringify(Object.fromEntries(Array.from({ length: 3500 }, (_, index) => [index.toString(36), 0])));
      expect(Buffer.byteLength(payload)).toBeLessThan(32 * 1024);
      const answer = await t.post('/api/client/add', { headers: { ...admin, 'content-type': 'application/json' }, payload });
      expect(answer.body).toEqual(MORE_THAN_64_KEYS);
      expect(answer.raw.length).toBeLessThan(100);
    });

    it('should name 10 of 61 unknown fields in a body of 64 keys, then how many more', async () => {
      const answer = await addClient({ ...CLIENT_BODY, ...unknownFields(61) });
      expect(answer.body).toEqual({ status: 400, error: `${namedUnknown(10).join('; ')}; and 51 more` });
      expect(answer.raw.length).toBeLessThan(400);
    });

    it('should name 10 of 11 unknown fields, then "and 1 more", and all of 10 as before', async () => {
      expect((await addClient({ ...CLIENT_BODY, ...unknownFields(11) })).body).toEqual({
        status: 400,
        error: `${namedUnknown(10).join('; ')}; and 1 more`,
      });
      expect((await addClient({ ...CLIENT_BODY, ...unknownFields(10) })).body).toEqual({ status: 400, error: namedUnknown(10).join('; ') });
    });

    it('should count failing known fields and unknown ones together', async () => {
      const answer = await addClient({ appName: 5, appUrl: 'x', isHost: 'no', ...unknownFields(9) });
      expect(answer.body).toEqual({
        status: 400,
        error: `${namedUnknown(9).join('; ')}; appName must be a string; and 2 more`,
      });
    });

    it('should quote an unknown field name cut to 64 printable characters', async () => {
      const answer = await addClient({ ...CLIENT_BODY, ['n'.repeat(200)]: 1, 'a\u0000b\r\nc\u001b[31m\u202e': 2 });
      expect(answer.body).toEqual({
        status: 400,
        error: `property ${'n'.repeat(63)}… should not exist; property a?b??c?[31m? should not exist`,
      });
    });

    it('should name at most 10 unknown fields of a body that takes none, and of a query', async () => {
      const empty = await t.post('/api/client/get/secretKey', { headers: { secretKey: await t.addClient() }, body: unknownFields(20) });
      expect(empty.body).toEqual({ status: 400, error: `${namedUnknown(10).join('; ')}; and 10 more` });
      const query = Array.from({ length: 20 }, (_, index) => `u${index}=0`).join('&');
      const listed = await t.get(`/api/v1/clients?${query}`, admin);
      expect(listed.body).toEqual({ status: 400, error: `${namedUnknown(10).join('; ')}; and 10 more` });
    });

    it('should refuse an object of 65 keys at any depth with 400 before validation, and judge one of 64 on its fields', async () => {
      const nested = (keys: number) => ({ ...CLIENT_BODY, appName: { deeper: [{ x: unknownFields(keys) }] } });
      expect((await addClient(nested(65))).body).toEqual(MORE_THAN_64_KEYS);
      expect((await addClient(nested(64))).body).toEqual({ status: 400, error: 'appName must be a string' });
      expect((await addClient({ ...CLIENT_BODY, ...unknownFields(62) })).body).toEqual(MORE_THAN_64_KEYS);
    });

    it('should not count an array as an object: 100 items reach validation', async () => {
      const items = Array.from({ length: 100 }, (_, index) => index);
      expect((await addClient({ ...CLIENT_BODY, appName: items })).body).toEqual({ status: 400, error: 'appName must be a string' });
      const objects = Array.from({ length: 100 }, (_, index) => ({ index }));
      expect((await addClient({ ...CLIENT_BODY, appDescription: objects })).body).toEqual({
        status: 400,
        error: 'appDescription must be a string',
      });
    });
  });

  it('should answer 400 for any number a double would change, quoting where it is, shortened', async () => {
    const field = 'f'.repeat(70);
    const digits = '9'.repeat(80);
    const answer = await t.post('/api/client/add', {
      headers: { ...admin, 'content-type': 'application/json' },
      payload: `{"appName":"a","appUrl":"https://a.example.com","isHost":false,"extra":{"${field}":[1,${digits}]}}`,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      status: 400,
      error: `extra.${'f'.repeat(57)}… cannot be kept exactly as a number: ${'9'.repeat(63)}… (15 significant digits always can)`,
    });
  });

  it('should answer 400, not 500, for such a number in a body that repeats a key', async () => {
    const answer = await t.post('/api/client/add', {
      headers: { ...admin, 'content-type': 'application/json' },
      payload: '{"appName":"a","appUrl":"https://a.example.com","isHost":false,"n":1,"n":12345678901234567}',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      status: 400,
      error: 'Request body cannot be kept exactly as a number: 12345678901234567 (15 significant digits always can)',
    });
  });

  it('should look at the numbers of a body only once the caller is authenticated', async () => {
    const payload = `{"appName":"a","appUrl":"https://a.example.com","isHost":false,"n":[${'"12345678901234567",'.repeat(1200)}12345678901234567]}`;
    const anonymous = await t.post('/api/client/add', { headers: { 'content-type': 'application/json' }, payload });
    expect(anonymous.body).toEqual({ status: 401, error: 'x-api-key header is required' });
    const wrongKey = await t.post('/api/client/add', { headers: { 'x-api-key': 'guess', 'content-type': 'application/json' }, payload });
    expect(wrongKey.body).toEqual({ status: 401, error: 'x-api-key is not valid' });
    const admitted = await t.post('/api/client/add', { headers: { ...admin, 'content-type': 'application/json' }, payload });
    expect(admitted.body).toEqual({
      status: 400,
      error: 'n[1200] cannot be kept exactly as a number: 12345678901234567 (15 significant digits always can)',
    });
  });

  it('should answer 415 in the envelope for a body that is not JSON', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const answer = await t.post('/api/client/add', { headers: { ...admin, 'content-type': contentType }, payload: 'appName=a' });
      expect(answer.status).toBe(415);
      expect(answer.body).toEqual({ status: 415, error: 'Content-Type must be application/json' });
    }
  });

  it('should answer 413 in the envelope for a body over 32 KiB', async () => {
    const answer = await t.post('/api/client/add', {
      headers: admin,
      body: { appName: 'a', appUrl: 'https://a.example.com', isHost: false, appDescription: 'd'.repeat(32 * 1024) },
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ status: 413, error: 'Request body must not exceed 32 KiB' });
  });

  it('should accept a body of exactly 32 KiB and judge it on its fields', async () => {
    const base = JSON.stringify({ appName: 'a', appUrl: 'https://a.example.com', isHost: false, appDescription: '' });
    const answer = await t.post('/api/client/add', {
      headers: admin,
      body: { appName: 'a', appUrl: 'https://a.example.com', isHost: false, appDescription: 'd'.repeat(32 * 1024 - base.length) },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('appDescription must be shorter than or equal to 1000 characters');
  });

  it('should answer 404 in the envelope for an unknown route or method', async () => {
    const unknownRoute = await t.post('/api/client/remove', { headers: admin, body: {} });
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.body).toEqual({ status: 404, error: 'Cannot POST /api/client/remove' });
    const wrongMethod = await t.get('/api/client/add', admin);
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.body).toEqual({ status: 404, error: 'Cannot GET /api/client/add' });
  });

  it("should put the service's own x-request-id on every answer, never the caller's", async () => {
    const generated = await t.get('/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await t.get('/health', { 'x-request-id': 'caller-id-123' });
    expect(given.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const error = await t.post('/nowhere', { headers: { 'x-request-id': 'err-1' } });
    expect(error.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await t.get('/health', { 'x-request-id': 'bad id\twith spaces' });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const ids = [generated, given, error, unsafe].map((answer) => answer.headers['x-request-id']);
    expect(new Set(ids).size).toBe(4);
  });

  it('should set the API security headers on answers and errors: nothing framed, sniffed or cached', async () => {
    const added = await t.post('/api/client/add', {
      headers: admin,
      body: { appName: 'a', appUrl: 'https://a.example.com', isHost: false },
    });
    for (const answer of [added, await t.get('/health'), await t.post('/nowhere'), await t.post('/api/client/get/secretKey')]) {
      expect(answer.headers).toMatchObject({
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none';frame-ancestors 'none'",
        'cross-origin-resource-policy': 'same-origin',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
      });
      // Headers that only mean something for a page are left off JSON answers.
      expect(answer.headers).not.toHaveProperty('cross-origin-opener-policy');
      expect(answer.headers).not.toHaveProperty('x-xss-protection');
    }
  });

  it('should set helmet’s page policy on the Swagger UI, under which its scripts still load', async () => {
    for (const answer of [await t.get('/docs'), await t.get('/docs/swagger-ui-bundle.js')]) {
      expect(answer.status).toBe(200);
      expect(answer.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'strict-transport-security': expect.stringContaining('max-age='),
        'cross-origin-opener-policy': 'same-origin',
      });
      const csp = answer.headers['content-security-policy'] as string;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    }
  });

  it('should answer every success with HTTP 200, never 201', async () => {
    const answer = await t.post('/api/client/add', {
      headers: admin,
      body: { appName: 'a', appUrl: 'https://a.example.com', isHost: false },
    });
    expect(answer.status).toBe(200);
  });

  describe('GET /health', () => {
    it('should report the database and the broker', async () => {
      const answer = await t.get('/health');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 200, results: { database: 'up', broker: expect.stringMatching(/^(up|down)$/) } });
    });
  });

  describe('Swagger', () => {
    it('should serve the UI at /docs', async () => {
      const answer = await t.get('/docs');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toContain('text/html');
      expect(answer.raw).toContain('swagger-ui');
    });

    it('should describe all five operations with request and response schemas', async () => {
      const document = (await t.get('/docs-json')).body;
      expect(document.openapi).toMatch(/^3\./);
      for (const [path, summary] of OPERATIONS) {
        const operation = document.paths[path]?.post;
        expect(operation?.summary).toBe(summary);
        expect(operation.responses['200'].content['application/json'].schema.$ref).toMatch(/^#\/components\/schemas\//);
      }
      expect(document.paths['/api/client/add'].post.requestBody.content['application/json'].schema.$ref).toBe(
        '#/components/schemas/AddClientDto',
      );
      expect(document.paths['/api/sms-config/add'].post.requestBody.content['application/json'].schema.$ref).toBe(
        '#/components/schemas/AddSmsConfigDto',
      );
      expect(document.paths['/api/v1/rabbitmq/exchanges'].post.requestBody.content['application/json'].schema.$ref).toBe(
        '#/components/schemas/CreateExchangeDto',
      );
    });

    it('should declare the three credentials as security schemes and on the routes that need them', async () => {
      const document = (await t.get('/docs-json')).body;
      expect(document.components.securitySchemes).toEqual({
        adminApiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
        secretKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'secretKey' }),
        dispatcherApiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
      });
      const security = (path: string, method = 'post') => document.paths[path][method].security;
      expect(security('/api/client/add')).toEqual([{ adminApiKey: [] }]);
      expect(security('/api/v1/rabbitmq/exchanges')).toEqual([{ adminApiKey: [] }]);
      expect(security('/api/client/get/secretKey')).toEqual([{ secretKey: [] }]);
      expect(security('/api/sms-config/add')).toEqual([{ secretKey: [] }]);
      expect(security('/api/sms-config/get-all-by-client-id')).toEqual([{ secretKey: [] }]);
      for (const [path, method] of LIFECYCLE_ROUTES.admin) expect(security(path, method)).toEqual([{ adminApiKey: [] }]);
      for (const [path, method] of LIFECYCLE_ROUTES.client) expect(security(path, method)).toEqual([{ secretKey: [] }]);
      expect(security('/api/v1/sms-configs/resolve')).toEqual([{ dispatcherApiKey: [] }]);
    });

    it('should document Idempotency-Key, its 409 and 422 (and the 10-minute window of a secret key), on add client, add SMS configuration, both rotations, both makings of a scoped key and outcome reports only', async () => {
      const document = (await t.get('/docs-json')).body;
      const idempotent = new Set([
        'post /api/client/add',
        'post /api/sms-config/add',
        'post /api/v1/client/secret-key/rotate',
        'post /api/v1/clients/{clientId}/secret-key/rotate',
        'post /api/v1/client/keys',
        'post /api/v1/clients/{clientId}/keys',
        'post /api/v1/dispatch/outcomes',
      ]);
      // Their answers hold a new secret key: replayed for 10 minutes, then 422.
      const holdsSecretKey = new Set([
        'post /api/client/add',
        'post /api/v1/client/secret-key/rotate',
        'post /api/v1/clients/{clientId}/secret-key/rotate',
        'post /api/v1/client/keys',
        'post /api/v1/clients/{clientId}/keys',
      ]);
      for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
        for (const [method, operation] of Object.entries(operations)) {
          const header = (operation.parameters ?? []).find((parameter: { name: string }) => parameter.name === 'Idempotency-Key');
          const route = `${method} ${path}`;
          expect({ route, documented: header !== undefined }).toEqual({ route, documented: idempotent.has(route) });
          if (header === undefined) continue;
          expect(header).toMatchObject({ in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
          expect(operation.responses['422'].description).toBe(
            holdsSecretKey.has(route)
              ? 'Idempotency-Key was used with a different request; or: Idempotency-Key has expired for an answer holding a secret key'
              : 'Idempotency-Key was used with a different request',
          );
          expect(header.description).toContain(holdsSecretKey.has(route) ? 'within 10 minutes' : 'within 24 h');
          expect(operation.responses['409'].description).toContain('A request with this Idempotency-Key is in progress');
        }
      }
      expect(document.paths['/api/sms-config/add'].post.responses['409'].description).toContain('SMS configurations');
    });

    it('should describe the error envelope for each error status of each operation', async () => {
      const document = (await t.get('/docs-json')).body;
      expect(document.components.schemas.ErrorResponseDto.required).toEqual(['status', 'error']);
      const expected: Record<string, string[]> = {
        '/api/client/add': ['400', '401', '409', '413', '415', '422', '429', '500', '503'],
        '/api/client/get/secretKey': ['400', '401', '404', '413', '415', '429', '500', '503'],
        '/api/sms-config/add': ['400', '401', '403', '409', '413', '415', '429', '500', '503'],
        '/api/sms-config/get-all-by-client-id': ['400', '401', '403', '413', '415', '429', '500', '503'],
        '/api/v1/rabbitmq/exchanges': ['400', '401', '409', '413', '415', '429', '500', '503'],
        'GET /api/v1/clients': ['400', '401', '429', '500', '503'],
        'GET /api/v1/clients/{clientId}': ['400', '401', '404', '429', '500', '503'],
        'PATCH /api/v1/clients/{clientId}': ['400', '401', '404', '413', '415', '429', '500', '503'],
        'DELETE /api/v1/clients/{clientId}': ['400', '401', '404', '429', '500', '503'],
        '/api/v1/clients/{clientId}/secret-key/rotate': ['400', '401', '404', '409', '413', '415', '422', '429', '500', '503'],
        '/api/v1/client/secret-key/rotate': ['400', '401', '403', '409', '413', '415', '422', '429', '500', '503'],
        'GET /api/v1/sms-configs/{smsConfigId}': ['400', '401', '403', '404', '429', '500', '503'],
        'PATCH /api/v1/sms-configs/{smsConfigId}': ['400', '401', '403', '404', '413', '415', '429', '500', '503'],
        'DELETE /api/v1/sms-configs/{smsConfigId}': ['400', '401', '403', '404', '429', '500', '503'],
        '/api/v1/sms-configs/{smsConfigId}/verify-api-key': ['400', '401', '403', '404', '429', '500', '503'],
        '/api/v1/sms-configs/resolve': ['400', '401', '403', '404', '409', '413', '415', '429', '500', '503'],
        'GET /api/v1/audit-events': ['400', '401', '429', '500', '503'],
      };
      for (const [route, statuses] of Object.entries(expected)) {
        const [method, path] = route.includes(' ') ? route.split(' ') : ['POST', route];
        const responses = document.paths[path][method.toLowerCase()].responses;
        for (const status of statuses) {
          expect({ path, status, schema: responses[status]?.content?.['application/json']?.schema }).toEqual({
            path,
            status,
            schema: { $ref: '#/components/schemas/ErrorResponseDto' },
          });
        }
      }
    });
  });
});
