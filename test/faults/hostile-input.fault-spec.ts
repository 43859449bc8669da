import { connect } from 'node:net';
import fc from 'fast-check';
import { ADMIN_API_KEY } from '../helpers/test-app';
import { deleteExchanges } from '../helpers/rabbitmq';
import { HttpAnswer, ServiceProcess, emptyMysqlDatabase, report, sqliteDatabaseUrl } from '../helpers/service-process';

jest.setTimeout(300000);

const RUNS_PER_ENDPOINT = Number(process.env.FUZZ_RUNS ?? 250);
/** Put inside every provider password and apiKey the fuzz sends: it must never come back in an answer. */
const SECRET_MARKER = 'Zq7-provider-secret-marker';
const EXCHANGE_NAME = /^[A-Za-z0-9_.:-]{1,255}$/;
const FUZZ_EXCHANGE_PREFIX = 'faults.fuzz.';

// ---- hostile values -------------------------------------------------------------------------------------------

/** Any JSON value, nested arrays and objects included. */
const anyJson = fc.jsonValue({ maxDepth: 4 });
/** Nesting far beyond the 32-level limit, as parsed JSON. */
const deepNesting = fc.integer({ min: 30, max: 3000 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { nested: value };
  return value;
});
const hugeString = fc
  .integer({ min: 1000, max: 70 * 1024 })
  .chain((length) => fc.constantFrom('x', 'é', '😀', '\u0000', '\ud800').map((unit) => unit.repeat(length / unit.length)));
/** Every UTF-16 unit, lone surrogates included, and 4-byte characters MySQL's utf8 (not utf8mb4) would refuse. */
const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string16bits({ maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', '😀', 'NaN', '-0', '1e309', "' OR 1=1 --", '{{7*7}}'),
);
const oddNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e308, -1e-308, 2 ** 53 + 1, -0, 0.1 + 0.2, 1e12, 1e12 - 1e-6));
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: anyJson, weight: 4 },
  { arbitrary: oddString, weight: 4 },
  { arbitrary: oddNumber, weight: 2 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: deepNesting, weight: 1 },
  { arbitrary: hugeString, weight: 1 },
);
const secretValue = fc.oneof(
  hostileValue,
  fc.string({ maxLength: 30 }).map((text) => `${SECRET_MARKER}${text}`),
);

/** A valid body with some fields replaced by hostile values, some removed and some hostile keys added. */
function mutate(valid: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const fields = Object.keys(valid);
  const hostileKeys = fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'clientId', 'id', ''),
    fc.string({ maxLength: 10 }),
  );
  const mutated = fc
    .record({
      base: fc.record(valid),
      replaced: fc.dictionary(fc.constantFrom(...fields), hostileValue, { maxKeys: 3 }),
      removed: fc.subarray(fields),
      extra: fc.dictionary(hostileKeys, hostileValue, { maxKeys: 2 }),
    })
    .map(({ base, replaced, removed, extra }) => {
      const body: Record<string, unknown> = { ...base, ...replaced };
      for (const field of removed) delete body[field];
      // Own enumerable keys, so even "__proto__" is sent as a key in the JSON text.
      for (const [key, value] of Object.entries(extra)) Object.defineProperty(body, key, { value, enumerable: true });
      return body;
    });
  return fc.oneof({ arbitrary: mutated, weight: 6 }, { arbitrary: hostileValue, weight: 1 }, { arbitrary: fc.constant({}), weight: 1 });
}

const httpUrl = fc.oneof(
  fc.webUrl(),
  // User info, IPv4 in every form, IPv6 and ports: refused or accepted by the URL rules, never a 500.
  fc.webUrl({ authoritySettings: { withIPv4: true, withIPv4Extended: true, withIPv6: true, withPort: true, withUserInfo: true } }),
  fc.constantFrom('javascript:alert(1)', 'http://', 'https://a', 'ftp://x.y', 'http://2130706433/', 'http://[::ffff:10.0.0.1]/'),
  oddString,
);
/**
 * Text of up to `max` graphemes, each of one or more code points (emoji with variation selectors, combining accents):
 * around every column's limit as MySQL counts it, which is not the count of UTF-16 units or of graphemes.
 */
const text = (max: number, min = 0) =>
  fc.oneof(
    fc.string({ minLength: min, maxLength: max }),
    // size 'max': lengths up to the limit itself, not the few characters fast-check generates by default.
    fc.string({ unit: 'grapheme', minLength: min, maxLength: max, size: 'max' }),
  );

const bodies: Record<string, fc.Arbitrary<unknown>> = {
  '/api/client/add': mutate({
    appName: text(100, 1),
    appUrl: httpUrl,
    appDescription: text(1000),
    preferredSmsGateway: text(100),
    isHost: fc.boolean(),
  }),
  '/api/client/get/secretKey': fc.oneof(fc.constant(undefined), mutate({ clientId: fc.integer() })),
  '/api/sms-config/add': mutate({
    providerName: text(100, 1),
    smsApi: httpUrl,
    providerUrl: httpUrl,
    balanceUrl: httpUrl,
    username: text(255),
    password: secretValue,
    apiKey: secretValue,
    senderId: text(20),
    smsType: fc.constantFrom('Transactional', 'Promotional'),
    balance: oddNumber,
    perSmsCost: oddNumber,
    isActive: fc.boolean(),
    clientId: fc.integer(),
  }),
  '/api/sms-config/get-all-by-client-id': fc.oneof(fc.constant(undefined), mutate({ clientId: fc.oneof(fc.integer(), hostileValue) })),
  '/api/v1/rabbitmq/exchanges': mutate({
    name: fc.oneof(fc.stringMatching(/^[a-z.]{1,20}$/), oddString, fc.constantFrom('amq.direct', 'a'.repeat(256))),
    type: fc.oneof(fc.constantFrom('direct', 'fanout', 'topic', 'headers', 'TOPIC', 'x-delayed'), oddString),
  }),
};

/** Names valid for the broker are moved under a prefix of ours, so the fuzz never touches anyone else's exchange. */
function confineExchangeName(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const name = (body as { name?: unknown }).name;
    if (typeof name === 'string' && EXCHANGE_NAME.test(name) && !name.startsWith('amq.')) {
      return { ...body, name: (FUZZ_EXCHANGE_PREFIX + name).slice(0, 255) };
    }
  }
  return body;
}

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  '',
);

/** How the body goes on the wire: as JSON text, or as bytes that are not (quite) JSON. */
function payloadOf(body: unknown): fc.Arbitrary<string | Uint8Array | undefined> {
  const json = body === undefined ? undefined : JSON.stringify(body);
  return fc.oneof(
    { arbitrary: fc.constant(json), weight: 8 },
    { arbitrary: fc.uint8Array({ maxLength: 200 }), weight: 1 },
    // Invalid UTF-8 inside an otherwise valid JSON string.
    {
      arbitrary: fc.constant(Buffer.concat([Buffer.from('{"appName":"'), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('"}')])),
      weight: 1,
    },
    {
      arbitrary: fc.constantFrom(
        '',
        'null',
        '[]',
        '"text"',
        '123',
        '{"a":',
        '{"__proto__":{"polluted":1}}',
        '{"constructor":{"prototype":{"polluted":1}}}',
      ),
      weight: 1,
    },
    { arbitrary: fc.nat({ max: Math.max(0, (json?.length ?? 1) - 1) }).map((cut) => json?.slice(0, cut)), weight: 1 },
  );
}

/** Printable ASCII only: fetch refuses other header bytes (the raw-socket tests below send those). */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 200 });

// ---- the invariants -----------------------------------------------------------------------------------------------

function expectCalmAnswer(answer: HttpAnswer, sentSecrets: string[]): void {
  expect(answer.status).toBeLessThan(500);
  expect(answer.body).toEqual(expect.objectContaining({ status: answer.status }));
  if (answer.status !== 200) {
    expect(Object.keys(answer.body).sort()).toEqual(['error', 'status']);
    expect(typeof answer.body.error).toBe('string');
  }
  expect(answer.headers.get('x-request-id')).toBeTruthy();
  expect(answer.raw).not.toContain(SECRET_MARKER);
  expect(answer.raw).not.toContain(ADMIN_API_KEY);
  if (answer.status !== 200) for (const secret of sentSecrets) if (secret.length >= 8) expect(answer.raw).not.toContain(secret);
}

describe.each([
  ['MySQL', () => emptyMysqlDatabase('fuzz')],
  ['SQLite', () => Promise.resolve(sqliteDatabaseUrl())],
])('Hostile input on %s (property-based, fast-check)', (databaseName, databaseUrl) => {
  let service: ServiceProcess;
  let validKey: string;
  const declared = new Set<string>();
  let requests = 0;

  beforeAll(async () => {
    // Thousands of refused keys from one address would meet the key-guessing limit (tested in rate-limit.e2e-spec):
    // raised here, so every hostile request is judged on its input.
    service = await ServiceProcess.start({ DATABASE_URL: await databaseUrl(), RATE_LIMIT_FAILED_AUTH_PER_IP: '1000000' });
    validKey = await service.addClient({ appName: 'fuzz target' });
  });
  afterAll(async () => {
    await service?.stop();
    if (declared.size > 0) await deleteExchanges([...declared]);
    report(`fuzz on ${databaseName}`, { requests: String(requests) });
  });

  it.each(Object.keys(bodies))('should answer %s calmly whatever the body, content type and credentials', async (path) => {
    const isAdminRoute = path === '/api/client/add' || path === '/api/v1/rabbitmq/exchanges';
    const credentials = isAdminRoute
      ? fc.oneof(
          { arbitrary: fc.constant({ 'x-api-key': ADMIN_API_KEY }), weight: 4 },
          { arbitrary: fc.record({ 'x-api-key': headerText }), weight: 1 },
          { arbitrary: fc.constant({}), weight: 1 },
        )
      : fc.oneof(
          { arbitrary: fc.constant({ secretKey: '' }).map(() => ({ secretKey: validKey })), weight: 4 },
          { arbitrary: headerText.map((secretKey) => ({ secretKey })), weight: 1 },
          { arbitrary: fc.stringMatching(/^sk_[A-Za-z0-9_-]{43}$/).map((secretKey) => ({ secretKey })), weight: 1 },
          { arbitrary: fc.constant({}), weight: 1 },
        );
    const request = fc.record({ body: bodies[path], credentials, contentType }).chain(({ body, credentials, contentType }) => {
      const confined = path === '/api/v1/rabbitmq/exchanges' ? confineExchangeName(body) : body;
      return payloadOf(confined).map((payload) => ({ payload, credentials, contentType }));
    });

    await fc.assert(
      fc.asyncProperty(request, async ({ payload, credentials, contentType }) => {
        const headers: Record<string, string> = { ...credentials };
        if (contentType) headers['content-type'] = contentType;
        requests++;
        const answer = await service.post(path, { headers, payload, timeoutMs: 10000 });
        if (path === '/api/v1/rabbitmq/exchanges' && answer.status === 200) declared.add(answer.body.exchangeDetails.name);
        expectCalmAnswer(
          answer,
          Object.values(credentials).filter((value) => value !== validKey),
        );
      }),
      { numRuns: RUNS_PER_ENDPOINT, endOnFailure: true },
    );
  });

  it('should answer /health and unknown routes calmly whatever the method and headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
        fc.constantFrom(
          '/health',
          '/',
          '/api',
          '/api/client',
          '/api/client/add/..',
          '/%00',
          '/api/client/get/secretKey?x=1',
          '/docs-json/../health',
        ),
        headerText,
        async (method, path, header) => {
          requests++;
          const answer = await service.request(method, path, { headers: { secretKey: header, 'x-api-key': header } });
          expect(answer.status).toBeLessThan(500);
          if (method !== 'HEAD' && !(method === 'GET' && path.startsWith('/docs'))) expect(answer.body?.status).toBe(answer.status);
        },
      ),
      { numRuns: 60 },
    );
  });

  describe('header abuse on a raw socket', () => {
    it('should answer 431 in the envelope for a secretKey header over Node’s 16 KiB limit', async () => {
      const answer = await rawRequest(
        service.url,
        `POST /api/client/get/secretKey HTTP/1.1\r\nHost: x\r\nsecretKey: ${'k'.repeat(20 * 1024)}\r\nContent-Length: 0\r\n\r\n`,
      );
      expect(answer).toEqual({ status: 431, body: { status: 431, error: 'Request headers are too large' } });
    });

    it('should answer 431 for thousands of repeated secretKey headers', async () => {
      const repeated = `secretKey: ${validKey}\r\n`.repeat(1000);
      const answer = await rawRequest(
        service.url,
        `POST /api/client/get/secretKey HTTP/1.1\r\nHost: x\r\n${repeated}Content-Length: 0\r\n\r\n`,
      );
      expect(answer).toEqual({ status: 431, body: { status: 431, error: 'Request headers are too large' } });
    });

    it.each([
      ['/api/client/get/secretKey', { status: 404, error: 'No client matches the secretKey' }],
      ['/api/sms-config/get-all-by-client-id', { status: 401, error: 'secretKey is not valid' }],
    ])('should not accept a repeated secretKey header on %s, even when each copy is valid', async (path, expected) => {
      // Node joins repeated headers with ", ": the result is no client's key.
      for (const second of [validKey, 'sk_other']) {
        const answer = await rawRequest(
          service.url,
          `POST ${path} HTTP/1.1\r\nHost: x\r\nsecretKey: ${validKey}\r\nSECRETKEY: ${second}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
        );
        expect(answer).toEqual({ status: expected.status, body: expected });
      }
    });

    it.each([
      ['a control character in the secretKey value', `secretKey: ab\x01cd\r\n`],
      ['a header line without a colon', `secretKey\r\n`],
      ['Content-Length and Transfer-Encoding together', `Transfer-Encoding: chunked\r\nContent-Length: 3\r\n`],
      ['a space before the colon', `secretKey : ${'x'.repeat(10)}\r\n`],
    ])('should answer 400 in the envelope for %s', async (_case, header) => {
      const answer = await rawRequest(
        service.url,
        `POST /api/client/get/secretKey HTTP/1.1\r\nHost: x\r\n${header}Connection: close\r\n\r\n`,
      );
      expect(answer).toEqual({ status: 400, body: { status: 400, error: 'Malformed HTTP request' } });
    });

    it.each([
      ['QUERY without a Content-Type', 'QUERY', ''],
      ['PROPFIND without a Content-Type', 'PROPFIND', ''],
      ['QUERY with a text body', 'QUERY', 'Content-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello'],
    ])('should answer 404 through Node’s own parser for %s', async (_case, method, rest) => {
      const answer = await rawRequest(
        service.url,
        `${method} /api/client/add HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${rest || '\r\n'}`,
      );
      expect(answer).toEqual({ status: 404, body: { status: 404, error: `Cannot ${method} /api/client/add` } });
    });

    it('should treat non-ASCII bytes in the secretKey as an unknown key', async () => {
      const request = Buffer.concat([
        Buffer.from('POST /api/sms-config/get-all-by-client-id HTTP/1.1\r\nHost: x\r\nsecretKey: sk_'),
        Buffer.from([0xc3, 0xa9, 0xff, 0x80]),
        Buffer.from('\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'),
      ]);
      const answer = await rawRequest(service.url, request);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body.status).toBe(answer.status);
    });
  });

  it('should be healthy afterwards and serve normally', async () => {
    expect(service.child.exitCode).toBeNull();
    expect((await service.request('GET', '/health')).status).toBe(200);
    const secretKey = await service.addClient();
    expect((await service.post('/api/client/get/secretKey', { headers: { secretKey } })).status).toBe(200);
    expect(service.logs().filter((line) => /"level":(50|60)/.test(line) && !/Dependency unavailable/.test(line))).toEqual([]);
  });
});

/** Sends bytes exactly as given (no client library fixing them up) and reads the answer until the server closes. */
function rawRequest(url: string, request: string | Buffer): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(10000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const bodyText = text.slice(text.indexOf('\r\n\r\n') + 4);
      let body: unknown;
      try {
        body = JSON.parse(bodyText);
      } catch {
        body = bodyText;
      }
      resolve({ status, body });
    });
    // The server may answer (and close) before all of a too-large request is written.
    socket.write(request, () => undefined);
  });
}
