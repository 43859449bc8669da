import { assertAnswerMatchesContract } from './helpers/contract';

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
