import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { assertRefusalIsDescribed, documentRefusal } from './helpers/document-validator';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';
import CLIENT from './fixtures/client.json';

const json = { 'content-type': 'application/json' };

/**
 * openapi.json says every rule of a request that JSON Schema can express: each request here is refused by the service
 * with 400 and by openapi-backend, a validator driven by the document alone (test/helpers/document-validator.ts).
 */
describe('openapi.json refuses what the service refuses, where JSON Schema can say it', () => {
  let t: TestApp;
  let secretKey: string;
  let clientId: number;
  let smsConfigId: number;
  const admin = { 'x-api-key': ADMIN_API_KEY };

  beforeAll(async () => {
    t = await startTestApp();
    secretKey = await t.addClient({ appName: 'document-rules' });
    clientId = (await t.get('/api/v1/clients?appName=document-rules', admin)).body.results.items[0].clientId;
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    smsConfigId = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results[0].smsConfigId;
  });
  afterAll(async () => t?.close());

  async function expectRefusedByBoth(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    body?: unknown,
  ) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const sent = { ...headers, ...(payload === undefined ? {} : json) };
    const answer = await t.send(method, url, { headers: sent, payload });
    const refusal = await documentRefusal({ method, url, headers: sent, payload });
    expect({ url, body, status: answer.status, documentRefuses: refusal !== undefined }).toEqual({
      url,
      body,
      status: 400,
      documentRefuses: true,
    });
  }

  it('should say that path ids are integers from 1 to 2147483647', async () => {
    for (const id of ['0', '-1', '2147483648', '1.5', 'abc']) {
      await expectRefusedByBoth('GET', `/api/v1/clients/${id}`, admin);
      await expectRefusedByBoth('DELETE', `/api/v1/sms-configs/${id}`, { secretKey });
      await expectRefusedByBoth('DELETE', `/api/v1/provider-hosts/${id}`, admin);
    }
  });

  it('should say the bounds of query integers and that a list takes no other query field', async () => {
    await expectRefusedByBoth('GET', '/api/v1/clients?limit=0', admin);
    await expectRefusedByBoth('GET', '/api/v1/clients?limit=201', admin);
    await expectRefusedByBoth('GET', '/api/v1/audit-events?clientId=0', admin);
    await expectRefusedByBoth('GET', '/api/v1/audit-events?clientId=2147483648', admin);
    await expectRefusedByBoth('GET', '/api/v1/clients?page=2', admin);
    await expectRefusedByBoth('GET', '/api/v1/provider-hosts?cursor=', admin);
  });

  it('should say that a body takes no field it does not declare, at any depth', async () => {
    await expectRefusedByBoth('POST', '/api/client/add', admin, { ...CLIENT, clientId: 1 });
    await expectRefusedByBoth('POST', '/api/client/get/secretKey', { secretKey }, { clientId });
    await expectRefusedByBoth(
      'POST',
      '/api/sms-config/add',
      { secretKey },
      validSmsConfig({ destinationPrices: [{ prefix: '44', perSmsCost: 1, note: 'x' }] }),
    );
    await expectRefusedByBoth('PATCH', `/api/v1/sms-configs/${smsConfigId}`, { secretKey }, { smsConfigId });
  });

  it('should say that a PATCH body changes at least one field', async () => {
    await expectRefusedByBoth('PATCH', `/api/v1/clients/${clientId}`, admin, {});
    await expectRefusedByBoth('PATCH', `/api/v1/sms-configs/${smsConfigId}`, { secretKey }, {});
  });

  it('should say the patterns of prefixes, destinations, URLs and exchange names', async () => {
    await expectRefusedByBoth('PATCH', `/api/v1/clients/${clientId}`, admin, { allowedDestinations: ['4a'] });
    await expectRefusedByBoth('PATCH', `/api/v1/clients/${clientId}`, admin, { allowedDestinations: ['44', '44'] });
    await expectRefusedByBoth(
      'POST',
      '/api/sms-config/add',
      { secretKey },
      validSmsConfig({ destinationPrices: [{ prefix: '+44', perSmsCost: 1 }] }),
    );
    await expectRefusedByBoth('POST', '/api/v1/dispatch/route', { 'x-api-key': DISPATCHER_API_KEY, secretKey }, { destination: '447700' });
    await expectRefusedByBoth('POST', '/api/client/add', admin, { ...CLIENT, appUrl: 'ftp://files.example.com' });
    await expectRefusedByBoth('POST', '/api/v1/rabbitmq/exchanges', admin, { name: 'amq.document', type: 'topic' });
  });

  it('should say that names, descriptions, gateways and notes hold no control, bidirectional control or separator', async () => {
    await expectRefusedByBoth('POST', '/api/client/add', admin, { ...CLIENT, appName: 'a\u202eb' });
    await expectRefusedByBoth('POST', '/api/client/add', admin, { ...CLIENT, appDescription: 'a\tb' });
    await expectRefusedByBoth('PATCH', `/api/v1/clients/${clientId}`, admin, { preferredPushNotificationGateway: 'a\u2028b' });
    await expectRefusedByBoth('POST', '/api/sms-config/add', { secretKey }, validSmsConfig({ senderId: 'A\u2066B' }));
    await expectRefusedByBoth('PATCH', `/api/v1/sms-configs/${smsConfigId}`, { secretKey }, { providerName: 'p\u202d' });
    await expectRefusedByBoth('POST', '/api/v1/provider-hosts', admin, { host: 'api.provider.example', note: 'n\u2029' });
  });

  it('should say where an empty text is refused and the bounds of body ids', async () => {
    await expectRefusedByBoth('POST', '/api/v1/sms-configs/resolve', { 'x-api-key': DISPATCHER_API_KEY }, { verifyApiKey: '' });
    await expectRefusedByBoth('POST', '/api/sms-config/get-all-by-client-id', { secretKey }, { clientId: 0 });
    await expectRefusedByBoth('POST', '/api/sms-config/get-all-by-client-id', { secretKey }, { clientId: 2147483648 });
    await expectRefusedByBoth(
      'POST',
      '/api/v1/dispatch/outcomes',
      { 'x-api-key': DISPATCHER_API_KEY },
      { smsConfigId: 2147483648, sent: 1, failed: 0 },
    );
  });
});

type Schema = { $ref?: string; type?: string; properties?: Record<string, Schema>; items?: Schema; additionalProperties?: unknown };
interface DocumentOperation {
  parameters?: Array<{ in: string; name: string; schema: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}

/** What holds of every operation, so that a route added later says it too. */
describe('openapi.json, every operation', () => {
  const document = JSON.parse(readFileSync(resolve(__dirname, '../openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, DocumentOperation>>;
    components: { schemas: Record<string, Schema> };
  };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, method, operation })),
  );
  const resolved = (schema: Schema): Schema => (schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()!] : schema);

  it('should say that every path id and query id is an integer from 1 to 2147483647', () => {
    const ids = operations.flatMap(({ name, operation }) =>
      (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'path' || (parameter.in === 'query' && parameter.name.endsWith('Id')))
        .map((parameter) => ({ name, parameter: parameter.name, schema: parameter.schema })),
    );
    // Nine path ids and the audit log's clientId today.
    expect(ids.length).toBeGreaterThanOrEqual(10);
    for (const id of ids)
      expect(id).toEqual({ ...id, schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 2147483647 }) });
  });

  it('should close every request body at every depth, and ask a PATCH for one field at least', () => {
    const open: string[] = [];
    const visit = (schema: Schema, at: string): void => {
      const target = resolved(schema);
      if (target.properties && target.additionalProperties !== false) open.push(at);
      for (const [field, child] of Object.entries(target.properties ?? {})) visit(child, `${at}.${field}`);
      if (target.items) visit(target.items, `${at}[]`);
    };
    for (const { name, method, operation } of operations) {
      const body = operation.requestBody?.content['application/json']?.schema;
      if (!body) continue;
      visit(body, name);
      if (method === 'patch')
        expect({ name, minProperties: (resolved(body) as { minProperties?: number }).minProperties }).toEqual({ name, minProperties: 1 });
    }
    expect(open).toEqual([]);
  });
});

/** The check every e2e request goes through (test/helpers/test-app.ts) must be able to fail, and only where it should. */
describe('Refusals of requests openapi.json accepts', () => {
  const addClient = { method: 'POST', url: '/api/client/add', headers: { ...json, 'x-api-key': 'k' }, payload: JSON.stringify(CLIENT) };
  const refused = (status: number, error: string) => ({ status, body: { status, error } });

  it('should fail a 400 whose reason no description of the operation states', async () => {
    await expect(assertRefusalIsDescribed(addClient, refused(400, 'appName must be a palindrome'))).rejects.toThrow(
      /openapi.json accepts POST \/api\/client\/add .* no description of the operation states: appName must be a palindrome/,
    );
    await expect(assertRefusalIsDescribed(addClient, refused(500, 'Internal server error'))).rejects.toThrow(/refused with 500/);
  });

  it('should pass a refusal that stored state decides', async () => {
    for (const status of [401, 403, 404, 409, 429, 503]) await assertRefusalIsDescribed(addClient, refused(status, 'x'));
    const route = { method: 'POST', url: '/api/v1/dispatch/route', headers: json, payload: '{"count":1}' };
    await assertRefusalIsDescribed(route, refused(400, 'destination is required for this client'));
  });

  it('should pass a 400 whose rule a description states', async () => {
    const add = {
      method: 'POST',
      url: '/api/sms-config/add',
      headers: json,
      payload: JSON.stringify(validSmsConfig({ balance: 0.1234567 })),
    };
    await assertRefusalIsDescribed(add, refused(400, 'balance must be a number >= 0 and < 1000000000000 with at most 6 decimal places'));
    const page = { method: 'GET', url: '/api/v1/clients?limit=0x10', headers: {} };
    expect(await documentRefusal(page)).toBeUndefined();
    await assertRefusalIsDescribed(page, refused(400, 'limit must be an integer from 1 to 200'));
  });

  it('should leave alone a request the document refuses', async () => {
    const unknownField = { ...addClient, payload: JSON.stringify({ ...CLIENT, colour: 'red' }) };
    expect(await documentRefusal(unknownField)).toMatch(/additional/);
    await assertRefusalIsDescribed(unknownField, refused(400, 'property colour should not exist'));
    const asText = { ...addClient, headers: { 'content-type': 'text/plain' } };
    expect(await documentRefusal(asText)).toBe('a body as text/plain');
  });

  it('should read the body and media type a request announces as a gateway would, whatever their spelling', async () => {
    const getClient = { method: 'POST', url: '/api/client/get/secretKey', headers: {} };
    expect(await documentRefusal(getClient)).toBeUndefined();
    expect(await documentRefusal({ ...getClient, headers: { 'content-type': '' } })).toBe('a body as no media type');
    expect(await documentRefusal({ ...getClient, headers: { 'content-type': 'multipart/form-data; boundary=x' } })).toBe(
      'a body as multipart/form-data',
    );
    const scalar = { ...getClient, headers: { 'content-type': 'APPLICATION/JSON; charset=utf-8' }, payload: '123' };
    expect(await documentRefusal(scalar)).toMatch(/must be object/);
  });
});
