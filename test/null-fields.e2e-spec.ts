import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

/**
 * `null` for every optional field of every request body openapi.json describes (so a new route or field is swept
 * without a change here): a field the document marks nullable takes it (outside PATCH as not given, in a PATCH as a
 * clear), any other is refused with 400 naming it; never a 5xx.
 */
interface Schema {
  type?: string;
  nullable?: boolean;
  example?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  $ref?: string;
}
interface Operation {
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
const DOCUMENT = JSON.parse(readFileSync(resolve(__dirname, '../openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
const schemaOf = (schema: Schema): Schema => (schema.$ref ? DOCUMENT.components.schemas[schema.$ref.split('/').pop()!] : schema);

interface NullCase {
  method: 'POST' | 'PATCH';
  path: string;
  field: string;
  nullable: boolean;
  operation: Operation;
  body: Schema;
}

const NULL_CASES: NullCase[] = Object.entries(DOCUMENT.paths).flatMap(([path, operations]) =>
  Object.entries(operations).flatMap(([verb, operation]) => {
    const documented = operation.requestBody?.content['application/json']?.schema;
    if (!documented) return [];
    const body = schemaOf(documented);
    const required = new Set(body.required ?? []);
    return Object.entries(body.properties ?? {})
      .filter(([field]) => !required.has(field))
      .map(([field, property]) => ({
        method: verb.toUpperCase() as NullCase['method'],
        path,
        field,
        nullable: property.nullable === true,
        operation,
        body,
      }));
  }),
);

/** What a request needs beyond its required fields' examples: a destination change must send the credentials again. */
const stored = validSmsConfig();
const BASE_BODIES: Record<string, Record<string, unknown>> = {
  'PATCH /api/v1/sms-configs/{smsConfigId}': { password: stored.password, apiKey: stored.apiKey },
};

describe('null for every optional field of every body', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  /** A client with one configuration (every field set), and the ids and credentials a request may need. */
  async function world() {
    const secretKey = await t.addClient({ appDescription: 'Sends invoices', preferredSmsGateway: 'twilio' });
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: { ...stored, lowBalanceThreshold: 5 } })).status).toBe(200);
    const [{ smsConfigId }] = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
    const [{ id: clientId }] = await t.dataSource.query('SELECT id FROM client');
    return { secretKey, ids: { clientId: Number(clientId), smsConfigId: Number(smsConfigId) } as Record<string, number> };
  }

  function headersFor(operation: Operation, secretKey: string): Record<string, string> {
    const schemes = new Set((operation.security ?? []).flatMap((requirement) => Object.keys(requirement)));
    return {
      ...(schemes.has('adminApiKey') ? { 'x-api-key': ADMIN_API_KEY } : {}),
      ...(schemes.has('dispatcherApiKey') ? { 'x-api-key': DISPATCHER_API_KEY } : {}),
      ...(schemes.has('secretKey') ? { secretKey } : {}),
    };
  }

  /** The required fields, each the id of the world's own resource when it names one, else its example. */
  function requiredFields(body: Schema, ids: Record<string, number>): Record<string, unknown> {
    return Object.fromEntries(
      (body.required ?? []).map((field) => {
        const value = ids[field] ?? body.properties?.[field]?.example;
        if (value === undefined) throw new Error(`no example in openapi.json for the required field ${field}: give it one`);
        return [field, value];
      }),
    );
  }

  function urlOf(path: string, ids: Record<string, number>): string {
    return path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
      if (ids[name] === undefined) throw new Error(`no value for the path parameter ${name} of ${path}: add it to world()`);
      return String(ids[name]);
    });
  }

  /** The field as the 200 answer shows it, when the answer's schema says it may be null. */
  function answersNullable(operation: Operation, field: string): boolean {
    const answer = operation.responses['200']?.content?.['application/json']?.schema;
    const results = answer && schemaOf(answer).properties?.results;
    return results !== undefined && schemaOf(results).properties?.[field]?.nullable === true;
  }

  it('should sweep the bodies of every operation that has optional fields', () => {
    const swept = new Set(NULL_CASES.map(({ method, path, field }) => `${method} ${path} ${field}`));
    for (const known of [
      'POST /api/client/add appDescription',
      'POST /api/sms-config/add clientId',
      'POST /api/sms-config/add password',
      'POST /api/sms-config/add isActive',
      'POST /api/sms-config/get-all-by-client-id clientId',
      'PATCH /api/v1/clients/{clientId} appName',
      'PATCH /api/v1/sms-configs/{smsConfigId} smsApi',
      'PATCH /api/v1/sms-configs/{smsConfigId} providerUrl',
      'POST /api/v1/client/secret-key/rotate graceSeconds',
      'POST /api/v1/dispatch/route smsType',
      'POST /api/v1/dispatch/outcomes balance',
    ]) {
      expect(swept).toContain(known);
    }
  });

  it.each(NULL_CASES.map((nullCase) => [`${nullCase.method} ${nullCase.path}`, nullCase.field, nullCase.nullable, nullCase]))(
    'should answer %s with %s: null as documented (nullable: %s), never 5xx',
    async (_operation, field, nullable, { method, path, operation, body }: NullCase) => {
      const { secretKey, ids } = await world();
      const request = { ...requiredFields(body, ids), ...(BASE_BODIES[`${method} ${path}`] ?? {}), [field]: null };
      const answer = await t.send(method, urlOf(path, ids), { headers: headersFor(operation, secretKey), body: request });

      expect(answer.status).toBeLessThan(500);
      if (!nullable) {
        expect({ status: answer.status, error: answer.body.error }).toEqual({
          status: 400,
          error: expect.stringMatching(new RegExp(`\\b${field}\\b`)),
        });
        return;
      }
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: expect.anything() });
      // A PATCH clears the field: the answer shows it null wherever it can be null.
      if (method === 'PATCH' && answersNullable(operation, field)) expect(answer.body.results[field]).toBeNull();
    },
  );
});

describe('null outside PATCH is not given', () => {
  let t: TestApp;
  const dispatcher = { 'x-api-key': DISPATCHER_API_KEY };

  beforeAll(async () => {
    t = await startTestApp();
    await approveProviderHosts(t);
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  it('should route with smsType null as without it (it answered 500)', async () => {
    const secretKey = await t.addClient();
    await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig({ smsType: 'Promotional' }) });
    await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig({ smsType: null }) });
    const route = (body: unknown) => t.post('/api/v1/dispatch/route', { headers: { ...dispatcher, secretKey }, body });
    const ids = (answer: { body: { results: { candidates: Array<{ smsConfigId: number }> } } }) =>
      answer.body.results.candidates.map((candidate) => candidate.smsConfigId);

    const withNull = await route({ smsType: null });
    expect(withNull.status).toBe(200);
    expect(ids(withNull)).toHaveLength(2);
    expect(ids(withNull)).toEqual(ids(await route({})));
    expect(withNull.body.results.skipped).toEqual([]);
  });

  it('should list with clientId null as without it (it answered 403)', async () => {
    const secretKey = await t.addClient();
    await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() });
    const listed = await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey }, body: { clientId: null } });
    expect(listed.status).toBe(200);
    expect(listed.body.results).toHaveLength(1);
  });

  it('should add an SMS configuration with every nullable field null as with none of them: the defaults', async () => {
    const secretKey = await t.addClient();
    const body = {
      clientId: null,
      providerName: 'p',
      smsApi: 'https://sms.example.com/send',
      providerUrl: null,
      balanceUrl: null,
      username: null,
      senderId: null,
      smsType: null,
      balance: null,
      perSmsCost: null,
      lowBalanceThreshold: null,
      isActive: null,
    };
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body })).status).toBe(200);
    const [added] = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
    const read = await t.get(`/api/v1/sms-configs/${added.smsConfigId}`, { secretKey });
    expect(read.body.results).toMatchObject({
      smsConfigId: added.smsConfigId,
      providerName: 'p',
      smsApi: 'https://sms.example.com/send',
      providerUrl: null,
      balanceUrl: null,
      username: null,
      senderId: null,
      smsType: null,
      balance: 0,
      perSmsCost: 0,
      lowBalanceThreshold: null,
      isActive: true,
    });
  });
});
