import { createServer, Server } from 'node:net';
import { ADMIN_API_KEY, TestApp, startTestApp } from './helpers/test-app';
import { declareDirectly, deleteExchanges, inspectExchange, uniqueExchangeName } from './helpers/rabbitmq';

const EXCHANGES = '/api/v1/rabbitmq/exchanges';

describe('Exchanges', () => {
  let t: TestApp;
  const created: string[] = [];
  const createExchange = (body: unknown, headers: Record<string, string> = { 'x-api-key': ADMIN_API_KEY }) =>
    t.post(EXCHANGES, { headers, body });
  const name = (label: string) => {
    const exchange = uniqueExchangeName(label);
    created.push(exchange);
    return exchange;
  };

  beforeAll(async () => {
    t = await startTestApp();
    await waitForBroker(t);
  });
  afterAll(async () => {
    await t.close();
    await deleteExchanges(created);
  });

  it.each(['direct', 'fanout', 'topic', 'headers'])('should declare a durable %s exchange on RabbitMQ', async (type) => {
    const exchange = name(type);
    const answer = await createExchange({ name: exchange, type });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 200,
      message: `Exchange ${exchange} declared`,
      exchangeDetails: { name: exchange, type },
    });
    expect(await inspectExchange(exchange)).toEqual({ name: exchange, type, durable: true, auto_delete: false, internal: false });
  });

  it('should succeed again when the exchange exists with the same type', async () => {
    const exchange = name('again');
    expect((await createExchange({ name: exchange, type: 'topic' })).status).toBe(200);
    expect((await createExchange({ name: exchange, type: 'topic' })).status).toBe(200);
  });

  it('should answer 409 naming the existing type, and go on answering normally afterwards', async () => {
    const exchange = name('conflict');
    await declareDirectly(exchange, 'direct');

    const conflict = await createExchange({ name: exchange, type: 'fanout' });

    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ status: 409, error: `Exchange ${exchange} already exists with type direct` });
    expect((await inspectExchange(exchange))?.type).toBe('direct');
    const next = name('after-conflict');
    expect((await createExchange({ name: next, type: 'fanout' })).status).toBe(200);
    expect((await createExchange({ name: exchange, type: 'direct' })).status).toBe(200);
  });

  it.each([
    [{ type: 'topic' }, 'name is required'],
    [{ name: null, type: 'topic' }, 'name is required'],
    [{ name: '', type: 'topic' }, 'name must be 1-255 letters, digits, -, _, . or :'],
    [{ name: 'has space', type: 'topic' }, 'name must be 1-255 letters, digits, -, _, . or :'],
    [{ name: 'ünïcode', type: 'topic' }, 'name must be 1-255 letters, digits, -, _, . or :'],
    [{ name: 'x'.repeat(256), type: 'topic' }, 'name must be shorter than or equal to 255 characters'],
    [{ name: 'amq.mine', type: 'topic' }, 'name must not begin with amq. (reserved by the broker)'],
    [{ name: 7, type: 'topic' }, 'name must be a string'],
    [{ name: 'ok' }, 'type is required'],
    [{ name: 'ok', type: 'Topic' }, 'type must be one of: direct, fanout, topic, headers'],
    [{ name: 'ok', type: 'x-delayed-message' }, 'type must be one of: direct, fanout, topic, headers'],
    [{ name: 'ok', type: 'topic', durable: false }, 'property durable should not exist'],
  ])('should answer 400 for %j', async (body, message) => {
    const answer = await createExchange(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, error: message });
  });

  it('should accept a name of exactly 255 characters', async () => {
    const exchange = name('long');
    const longName = exchange + 'x'.repeat(255 - exchange.length);
    created.push(longName);
    expect((await createExchange({ name: longName, type: 'direct' })).status).toBe(200);
    expect((await inspectExchange(longName))?.durable).toBe(true);
  });

  it('should answer 401 without or with a wrong admin key, and declare nothing', async () => {
    const exchange = uniqueExchangeName('unauthorised');
    expect((await createExchange({ name: exchange, type: 'topic' }, {})).body).toEqual({
      status: 401,
      error: 'x-api-key header is required',
    });
    expect((await createExchange({ name: exchange, type: 'topic' }, { 'x-api-key': 'nope' })).body).toEqual({
      status: 401,
      error: 'x-api-key is not valid',
    });
    expect(await inspectExchange(exchange)).toBeUndefined();
  });
});

describe('Exchanges while RabbitMQ is unreachable', () => {
  let t: TestApp;
  let silentPort: Server;

  beforeAll(async () => {
    // A port where nothing speaks AMQP: connections are accepted and then closed.
    silentPort = createServer((socket) => socket.destroy()).listen(0, '127.0.0.1');
    await new Promise((resolve) => silentPort.once('listening', resolve));
    const { port } = silentPort.address() as { port: number };
    t = await startTestApp({ AMQP_URL: `amqp://guest:guest@127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await t.close();
    silentPort.close();
  });

  it('should start, report the broker down and keep serving clients', async () => {
    expect((await t.get('/health')).body).toEqual({ status: 200, results: { database: 'up', broker: 'down' } });
    const secretKey = await t.addClient();
    expect((await t.post('/api/client/get/secretKey', { headers: { secretKey } })).status).toBe(200);
  });

  it('should answer exchange creation with 503 within 5 seconds', async () => {
    const started = Date.now();
    const answer = await t.post(EXCHANGES, { headers: { 'x-api-key': ADMIN_API_KEY }, body: { name: 'e2e.down', type: 'topic' } });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ status: 503, error: 'Service temporarily unavailable, retry later' });
  });
});

async function waitForBroker(t: TestApp): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if ((await t.get('/health')).body?.results?.broker === 'up') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('RabbitMQ did not connect within 10 s: is it running on 127.0.0.1:5672?');
}
