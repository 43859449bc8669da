import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { assertAnswerMatchesContract, assertRequestMatchesContract } from './helpers/contract';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

/** The check every e2e answer goes through (test/helpers/test-app.ts) must be able to fail. */
describe('Answers checked against openapi.json', () => {
  const json = (status: number, body: unknown) => ({
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body,
    raw: JSON.stringify(body),
  });
  const client = {
    appDescription: null,
    appUrl: 'https://a.example.com',
    secretKey: 'sk_x',
    preferredSmsGateway: null,
    preferredEmailGateway: null,
    preferredPushNotificationGateway: null,
    isHost: false,
    smsConfig: null,
  };

  it('should accept an answer the document describes', () => {
    expect(() => assertAnswerMatchesContract('POST', '/api/client/add', json(200, { status: 200, results: client }))).not.toThrow();
    expect(() =>
      assertAnswerMatchesContract('POST', '/api/client/add', json(401, { status: 401, error: 'x-api-key is not valid' })),
    ).not.toThrow();
  });

  it('should refuse a field the document does not name, and a missing one', () => {
    expect(() =>
      assertAnswerMatchesContract('POST', '/api/client/add', json(200, { status: 200, results: { ...client, password: 'leak' } })),
    ).toThrow(/must NOT have additional properties/);
    const { secretKey: _omitted, ...withoutKey } = client;
    expect(() => assertAnswerMatchesContract('POST', '/api/client/add', json(200, { status: 200, results: withoutKey }))).toThrow(
      /must have required property 'secretKey'/,
    );
  });

  it('should refuse a status the document does not list for the operation', () => {
    expect(() => assertAnswerMatchesContract('POST', '/api/client/add', json(404, { status: 404, error: 'x' }))).toThrow(
      /does not list 404/,
    );
  });

  it('should refuse an error outside the envelope, even on an unknown route', () => {
    expect(() => assertAnswerMatchesContract('POST', '/nowhere', json(404, { message: 'Not Found' }))).toThrow(/does not describe/);
    expect(() => assertAnswerMatchesContract('GET', '/nowhere', json(200, {}))).toThrow(/no such operation/);
  });

  it('should refuse a content type the document does not give', () => {
    expect(() => assertAnswerMatchesContract('GET', '/metrics', json(200, {}))).toThrow(/text\/plain/);
  });
});

/** The same check, for every request the service accepts: a validator in front of it must let that request through. */
describe('Requests checked against openapi.json', () => {
  it('should accept a body-less request to an operation whose body may be absent', () => {
    expect(() => assertRequestMatchesContract('POST', '/api/client/get/secretKey', undefined, 200)).not.toThrow();
    expect(() => assertRequestMatchesContract('POST', '/api/v1/client/secret-key/rotate', '', 200)).not.toThrow();
  });

  it('should refuse an accepted body-less request to an operation whose body is required', () => {
    expect(() => assertRequestMatchesContract('POST', '/api/client/add', undefined, 200)).toThrow(/says its body is required/);
    expect(() => assertRequestMatchesContract('PATCH', '/api/v1/clients/7', '', 200)).toThrow(/says its body is required/);
  });

  it('should refuse an accepted body the request schema does not describe', () => {
    expect(() => assertRequestMatchesContract('POST', '/api/v1/client/secret-key/rotate', '{"graceSeconds":"60"}', 200)).toThrow(
      /must be integer/,
    );
    expect(() => assertRequestMatchesContract('POST', '/api/client/get/secretKey', '{"clientId":1}', 200)).toThrow(
      /must NOT have additional properties/,
    );
    // OpenAPI 3.0's exclusiveMaximum: true beside maximum, read as the JSON Schema bound.
    const report = (balance: number) => JSON.stringify({ smsConfigId: 1, sent: 0, failed: 0, balance });
    expect(() => assertRequestMatchesContract('POST', '/api/v1/dispatch/outcomes', report(1e12), 200)).toThrow(/must be < 1000000000000/);
    expect(() => assertRequestMatchesContract('POST', '/api/v1/dispatch/outcomes', report(5), 200)).not.toThrow();
  });

  it('should refuse an accepted request to an operation the document does not have', () => {
    expect(() => assertRequestMatchesContract('POST', '/nowhere', undefined, 200)).toThrow(/no such operation/);
  });

  it('should leave alone a request the service refused, however malformed', () => {
    expect(() => assertRequestMatchesContract('POST', '/api/client/add', undefined, 400)).not.toThrow();
    expect(() => assertRequestMatchesContract('POST', '/api/client/add', '{"appName":', 400)).not.toThrow();
    expect(() => assertRequestMatchesContract('POST', '/nowhere', '{}', 404)).not.toThrow();
  });
});

type Security = Record<string, string[]>;
interface BodyOperation {
  method: string;
  path: string;
  required: boolean;
  security: Security[];
}

/** Every operation of the committed openapi.json that declares a request body, with whether the body is required. */
function bodyOperations(): BodyOperation[] {
  const document = JSON.parse(readFileSync(resolve(__dirname, '../openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { requestBody?: { required?: boolean }; security?: Security[] }>>;
  };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation.requestBody)
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        required: operation.requestBody!.required === true,
        security: operation.security ?? [],
      })),
  );
}

/** A body-less request is taken as `{}` (src/common/validation/request-validation.pipe.ts) by these operations only. */
const BODY_MAY_BE_ABSENT = [
  'POST /api/client/get/secretKey',
  'POST /api/sms-config/get-all-by-client-id',
  'POST /api/v1/client/secret-key/rotate',
  'POST /api/v1/clients/{clientId}/secret-key/rotate',
  'POST /api/v1/dispatch/route',
];

describe('Request bodies the service takes as absent', () => {
  let t: TestApp;
  let secretKey: string;
  let clientId: number;
  let smsConfigId: number;

  beforeAll(async () => {
    t = await startTestApp();
    secretKey = await t.addClient({ appName: 'contract-bodies' });
    clientId = (await t.get('/api/v1/clients?appName=contract-bodies', { 'x-api-key': ADMIN_API_KEY })).body.results.items[0].clientId;
    expect((await t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig() })).status).toBe(200);
    smsConfigId = (await t.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results[0].smsConfigId;
  });
  afterAll(async () => t?.close());

  const headersFor = (security: Security[]): Record<string, string> => {
    const schemes = Object.keys(security[0] ?? {});
    return {
      ...(schemes.includes('adminApiKey') ? { 'x-api-key': ADMIN_API_KEY } : {}),
      ...(schemes.includes('dispatcherApiKey') ? { 'x-api-key': DISPATCHER_API_KEY } : {}),
      ...(schemes.includes('secretKey') ? { secretKey } : {}),
    };
  };
  const urlOf = (path: string) => path.replace('{clientId}', String(clientId)).replace('{smsConfigId}', String(smsConfigId));

  it('should say in openapi.json that exactly these operations take an absent body', () => {
    const optional = bodyOperations()
      .filter((operation) => !operation.required)
      .map(({ method, path }) => `${method} ${path}`);
    expect(optional.sort()).toEqual([...BODY_MAY_BE_ABSENT].sort());
  });

  it('should answer 200 without a body where openapi.json does not require one, and 400 where it does', async () => {
    for (const { method, path, required, security } of bodyOperations()) {
      for (const withEmptyJson of [false, true]) {
        const headers = { ...headersFor(security), ...(withEmptyJson ? { 'content-type': 'application/json' } : {}) };
        const answer = await t.send(method as 'POST' | 'PATCH', urlOf(path), { headers, payload: withEmptyJson ? '' : undefined });
        expect({ operation: `${method} ${path}`, withEmptyJson, status: answer.status }).toEqual({
          operation: `${method} ${path}`,
          withEmptyJson,
          status: required ? 400 : 200,
        });
        // A rotation ends the key before the one it leaves working: carry on with the newest.
        if (answer.status === 200 && path.endsWith('/secret-key/rotate')) secretKey = answer.body.results.secretKey;
      }
    }
  });
});
