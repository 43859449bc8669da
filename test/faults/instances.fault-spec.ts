import { ADMIN_API_KEY, MYSQL_SERVER_URL, TEST_DATABASE_PREFIX } from '../helpers/test-app';
import { ServiceProcess, emptyMysqlDatabase, report, waitUntil } from '../helpers/service-process';
import { TcpRelay } from '../helpers/tcp-relay';
import { createConnection } from 'mysql2/promise';
import { MYSQL_MIGRATIONS } from '../../src/database/migrations/mysql';

jest.setTimeout(90000);

/** Two instances of the built service on one MySQL database, as a deployment with replicas runs it. */
describe('Several instances on one empty MySQL database', () => {
  let instances: ServiceProcess[] = [];
  let relay: TcpRelay;
  let startedIn = 0;

  beforeAll(async () => {
    const mysql = new URL(MYSQL_SERVER_URL);
    relay = await TcpRelay.start(mysql.hostname, Number(mysql.port || 3306));
    const url = relay.rewrite(await emptyMysqlDatabase('instances'));
    // The database is held until both instances have connected, then released at once: they reach the empty
    // schema at the same instant, and only the migration lock keeps them from both creating it.
    relay.freeze();
    const started = Date.now();
    const starting = [ServiceProcess.start({ DATABASE_URL: url }), ServiceProcess.start({ DATABASE_URL: url })];
    await waitUntil('both instances connect to the database', () => Promise.resolve(relay.openConnections >= 2), 20000, 20);
    await relay.restore();
    const outcomes = await Promise.allSettled(starting);
    startedIn = Date.now() - started;
    instances = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await relay?.close();
  });

  it('should bring both instances up ready, with the schema migrated exactly once', async () => {
    for (const instance of instances) {
      const health = await instance.request('GET', '/health');
      expect(health.status).toBe(200);
      expect(health.body.results.database).toBe('up');
    }
    const connection = await createConnection(`${MYSQL_SERVER_URL}/${TEST_DATABASE_PREFIX}_instances_${process.env.JEST_WORKER_ID ?? '0'}`);
    try {
      const [rows] = await connection.query('SELECT name FROM typeorm_migrations ORDER BY id');
      // Each migration once, in order.
      expect(rows).toEqual(MYSQL_MIGRATIONS.map((Migration) => ({ name: new Migration().name })));
    } finally {
      await connection.end();
    }
    report('two instances started together on an empty database', { 'both ready': startedIn });
  });

  it('should let each instance read what the other wrote', async () => {
    const [a, b] = instances;
    const fromA = await a.addClient({ appName: 'written by A' });
    const fromB = await b.addClient({ appName: 'written by B' });
    expect((await b.post('/api/client/get/secretKey', { headers: { secretKey: fromA } })).status).toBe(200);
    expect((await a.post('/api/client/get/secretKey', { headers: { secretKey: fromB } })).status).toBe(200);

    expect(
      (
        await b.post('/api/sms-config/add', {
          headers: { secretKey: fromA },
          body: { providerName: 'via B', smsApi: 'https://s.example.com' },
        })
      ).status,
    ).toBe(200);
    const seenByA = await a.post('/api/client/get/secretKey', { headers: { secretKey: fromA } });
    expect(seenByA.body.results.smsConfig.map((config: { providerName: string }) => config.providerName)).toEqual(['via B']);
  });

  it('should give hundreds of concurrent client creations across both instances distinct keys, all readable from either', async () => {
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        instances[i % 2].post('/api/client/add', {
          headers: { 'x-api-key': ADMIN_API_KEY },
          body: { appName: `burst-${i}`, appUrl: 'https://burst.example.com', isHost: false },
        }),
      ),
    );
    const tookMs = Date.now() - started;
    expect(answers.map((answer) => answer.status)).toEqual(Array(300).fill(200));
    const keys = answers.map((answer) => answer.body.results.secretKey as string);
    expect(new Set(keys).size).toBe(300);
    const reads = await Promise.all(
      keys.map((secretKey, i) => instances[(i + 1) % 2].post('/api/client/get/secretKey', { headers: { secretKey } })),
    );
    expect(reads.filter((read) => read.status !== 200)).toEqual([]);
    report('300 concurrent client creations on two instances', { took: tookMs });
  });

  it('should never let concurrent SMS configuration adds through both instances exceed the 100 cap', async () => {
    const secretKey = await instances[0].addClient({ appName: 'capped' });
    const answers = await Promise.all(
      Array.from({ length: 140 }, (_, i) =>
        instances[i % 2].post('/api/sms-config/add', {
          headers: { secretKey },
          body: { providerName: `p${i}`, smsApi: 'https://s.example.com' },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 409)).toHaveLength(40);
    const listed = await instances[1].post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } });
    expect(listed.body.results).toHaveLength(100);
  });
});
