import { ADMIN_API_KEY, AMQP_URL } from '../helpers/test-app';
import { deleteExchanges, inspectExchange, uniqueExchangeName } from '../helpers/rabbitmq';
import { HttpAnswer, ServiceProcess, report, sqliteDatabaseUrl, waitUntil } from '../helpers/service-process';
import { TcpRelay } from '../helpers/tcp-relay';

jest.setTimeout(120000);

const UNAVAILABLE = { status: 503, error: 'Service temporarily unavailable, retry later' };

/** RabbitMQ sits behind a relay: absent at start, killed (connections reset) and brought back, without a restart. */
describe('Broker outage (RabbitMQ behind a TCP relay)', () => {
  let relay: TcpRelay;
  let service: ServiceProcess;
  const declared: string[] = [];

  async function createExchange(label: string): Promise<{ answer: HttpAnswer; ms: number }> {
    const name = uniqueExchangeName(label);
    declared.push(name);
    const started = Date.now();
    const answer = await service.post('/api/v1/rabbitmq/exchanges', {
      headers: { 'x-api-key': ADMIN_API_KEY },
      body: { name, type: 'topic' },
    });
    return { answer, ms: Date.now() - started };
  }

  async function expectClientsAndSmsConfigsWork(): Promise<void> {
    const secretKey = await service.addClient();
    expect((await service.post('/api/client/get/secretKey', { headers: { secretKey } })).status).toBe(200);
    const added = await service.post('/api/sms-config/add', {
      headers: { secretKey },
      body: { providerName: 'p', smsApi: 'https://s.example.com' },
    });
    expect(added.status).toBe(200);
    expect((await service.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results).toHaveLength(1);
  }

  /** Polls exchange creation until it succeeds; returns the time it took and checks the broker really has it. */
  async function waitForExchangeCreation(boundMs: number): Promise<number> {
    let created = '';
    const ms = await waitUntil(
      'exchange creation works again',
      async () => {
        const { answer } = await createExchange('back');
        expect([200, 503]).toContain(answer.status);
        if (answer.status === 200) created = answer.body.exchangeDetails.name;
        return answer.status === 200;
      },
      boundMs,
      250,
    );
    expect(await inspectExchange(created)).toMatchObject({ name: created, type: 'topic', durable: true });
    return ms;
  }

  beforeAll(async () => {
    const broker = new URL(AMQP_URL);
    relay = await TcpRelay.start(broker.hostname, Number(broker.port || 5672));
    // Absent at start-up: nothing listens where the service looks for the broker.
    await relay.cut();
    service = await ServiceProcess.start({ DATABASE_URL: sqliteDatabaseUrl(), AMQP_URL: relay.rewrite(AMQP_URL) });
  });
  afterAll(async () => {
    await service?.stop();
    await relay?.close();
    if (declared.length > 0) await deleteExchanges(declared);
  });

  it('should start without the broker, report it down, serve clients and answer exchange creation 503 within 5 s', async () => {
    const health = await service.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 200, results: { database: 'up', broker: 'down' } });
    await expectClientsAndSmsConfigsWork();
    const { answer, ms } = await createExchange('absent');
    expect(answer.body).toEqual(UNAVAILABLE);
    expect(ms).toBeLessThan(5000);
    report('broker absent at start', { '503 after': ms });
  });

  it('should create exchanges within 20 s of the broker appearing, without a restart', async () => {
    await relay.restore();
    const recovery = await waitForExchangeCreation(20000);
    expect((await service.request('GET', '/health')).body.results.broker).toBe('up');
    report('broker appears after start', { recovery });
  });

  it('should answer 503 within 5 s when the broker dies, keep serving clients, and recover within 20 s when it returns', async () => {
    expect((await createExchange('before')).answer.status).toBe(200);
    relay.reset();
    const { answer, ms } = await createExchange('dead');
    expect(answer.body).toEqual(UNAVAILABLE);
    expect(ms).toBeLessThan(5000);
    await waitUntil(
      'health reports the broker down',
      async () => (await service.request('GET', '/health')).body.results.broker === 'down',
      5000,
    );
    await expectClientsAndSmsConfigsWork();

    await relay.restore();
    const recovery = await waitForExchangeCreation(20000);
    report('broker dies and returns', { '503 after': ms, recovery });
  });

  it('should answer 503 within 5 s while the broker hangs, and recover within 20 s when it answers again', async () => {
    relay.freeze();
    const { answer, ms } = await createExchange('hung');
    expect(answer.body).toEqual(UNAVAILABLE);
    expect(ms).toBeLessThan(5000);
    await expectClientsAndSmsConfigsWork();

    await relay.restore();
    const recovery = await waitForExchangeCreation(20000);
    report('broker hung', { '503 after': ms, recovery });
  });

  it('should recover again after a second death: reconnection is not a one-off', async () => {
    relay.reset();
    expect((await createExchange('dead-again')).answer.status).toBe(503);
    await relay.restore();
    const recovery = await waitForExchangeCreation(20000);
    report('broker dies a second time', { recovery });
  });

  it('should never exit because of the broker', () => {
    expect(service.child.exitCode).toBeNull();
    expect(service.child.signalCode).toBeNull();
  });
});
