import type { Config } from '@jest/types';
import { connect } from 'amqplib';
import { setTimeout as sleep } from 'node:timers/promises';
import { EntityManager } from 'typeorm';
import { sha256Hex } from '../src/auth/digest';
import { CACHE_INVALIDATION_EXCHANGE, DEPLOYMENT_HEADER } from '../src/client-cache/cache-invalidation.bus';
import { ChangeSequencePruner } from '../src/client-cache/change-sequence-pruner';
import { ChangeSequenceRepository } from '../src/client-cache/change-sequence.repository';
import { ClientCache } from '../src/client-cache/client-cache';
import { MonotonicClock } from '../src/common/clock';
import { sqlTimestamp } from '../src/database/timestamps';
import { ProviderHostRepository } from '../src/provider-host/provider-host.repository';
import { ADMIN_API_KEY, AMQP_URL, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const HOUR_MS = 60 * 60_000;
/** Fake timers that move the system's date alone: the app's timers and its monotonic clock run as they do. */
const ALL_BUT_DATE: Config.FakeableAPI[] = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
];

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** An app's monotonic clock, which the test moves on (never back: a timer measured across the move would wait long). */
function movableClock(app: TestApp): { moveOn(ms: number): void } {
  let moved = 0;
  jest.spyOn(app.app.get(MonotonicClock), 'now').mockImplementation(() => performance.now() + moved);
  return { moveOn: (ms) => (moved += ms) };
}

/**
 * The change sequence (docs/operations.md) read by instances on one database, its lines written by the test where a
 * line must arrive out of order or late (a transaction still open on another instance), and by the service otherwise.
 */
describe('The change sequence between instances on one database', () => {
  let url: string;
  let a: TestApp;
  let b: TestApp;
  let clockOfA: { moveOn(ms: number): void };
  let clockOfB: { moveOn(ms: number): void };

  const getClient = (app: TestApp, secretKey: string) => app.post('/api/client/get/secretKey', { headers: { secretKey } });
  const highestId = async () => Number((await a.dataSource.query('SELECT MAX(id) AS id FROM change_sequence'))[0].id ?? 0);
  const writeLine = (id: number, line: string, createdAt = new Date()) =>
    a.dataSource.query('INSERT INTO change_sequence (id, line, origin, created_at) VALUES (?, ?, ?, ?)', [
      id,
      line,
      'f'.repeat(16),
      sqlTimestamp(createdAt),
    ]);
  const linesAbove = async (id: number) =>
    (await a.dataSource.query<Array<{ line: string }>>('SELECT line FROM change_sequence WHERE id > ? ORDER BY id', [id])).map(
      ({ line }) => line,
    );

  /** A new client's key whose answer `reader` caches while it hears the bus: for up to a minute, unless told. */
  async function keyCachedIn(reader: TestApp): Promise<string> {
    await waitFor('the reader to hear the bus', () => reader.app.get(ClientCache).isLive, 10_000);
    const key = await a.addClient();
    expect((await getClient(reader, key)).status).toBe(200);
    expect(reader.app.get(ClientCache).lookupOwner(sha256Hex(key))).toBeDefined();
    return key;
  }
  const disableBehindTheService = (key: string) =>
    a.dataSource.query('UPDATE client SET is_active = 0 WHERE secret_key_digest = ?', [sha256Hex(key)]);
  const clientIdOf = async (key: string) =>
    Number((await a.dataSource.query('SELECT id FROM client WHERE secret_key_digest = ?', [sha256Hex(key)]))[0].id);

  beforeAll(async () => {
    url = await testDatabaseUrl();
    a = await startTestApp({ DATABASE_URL: url });
    b = await startTestApp({ DATABASE_URL: url }, { keepData: true });
    [clockOfA, clockOfB] = [movableClock(a), movableClock(b)];
  });
  afterEach(() => jest.useRealTimers());
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('should apply a line that commits after reads failed for longer than 5 s while its id was missing', async () => {
    const key = await keyCachedIn(b);
    const repository = b.app.get(ChangeSequenceRepository);
    const read = repository.readFrom.bind(repository);
    const reads = jest.spyOn(repository, 'readFrom');
    const missing = (await highestId()) + 1;
    await writeLine(missing + 1, 'a'.repeat(64));
    await waitFor('B to see the id missing', () => reads.mock.calls.some(([, ids]) => ids.includes(missing)));

    reads.mockRejectedValue(new Error('connection lost'));
    const failedFrom = reads.mock.calls.length;
    await waitFor('a read to fail', () => reads.mock.calls.length > failedFrom);
    clockOfB.moveOn(6000);
    await waitFor('another read to fail', () => reads.mock.calls.length > failedFrom + 1);
    reads.mockImplementation(read);
    const readAgainFrom = reads.mock.calls.length;
    await waitFor('two reads to succeed', () => reads.mock.calls.length > readAgainFrom + 1);
    reads.mockRestore();

    await disableBehindTheService(key);
    await writeLine(missing, `key:${sha256Hex(key)}`);
    await waitFor('B to refuse the disabled client', async () => (await getClient(b, key)).status === 403, 2000);
  });

  it("should send a change's line as its transaction's last statement, the COMMIT right after it", async () => {
    const key = await a.addClient();
    const clientId = await clientIdOf(key);
    // Every statement TypeORM sends, with the query runner (the connection) it went on: COMMIT included.
    const runner = Object.getPrototypeOf(a.dataSource.createQueryRunner()) as { query: (...args: unknown[]) => Promise<unknown> };
    const query = runner.query;
    const sent: Array<{ on: unknown; sql: string }> = [];
    const watch = jest.spyOn(runner, 'query').mockImplementation(function (this: unknown, ...args: unknown[]) {
      sent.push({ on: this, sql: String(args[0]) });
      return query.apply(this, args);
    });
    const afterLine = async (change: () => Promise<{ status: number }>) => {
      sent.length = 0;
      expect((await change()).status).toBe(200);
      const line = sent.find(({ sql }) => /^INSERT INTO [`"]?change_sequence/.test(sql))!;
      const onItsConnection = sent.filter(({ on }) => on === line.on);
      return onItsConnection[onItsConnection.indexOf(line) + 1].sql;
    };
    try {
      // A field get-client shows: one it does not read writes no line.
      const patch = { headers: ADMIN, body: { appDescription: 'Renamed' } };
      expect(await afterLine(() => a.send('PATCH', `/api/v1/clients/${clientId}`, patch))).toBe('COMMIT');
      const add = { headers: { secretKey: key, 'idempotency-key': `last-${Date.now()}` }, body: validSmsConfig() };
      expect(await afterLine(() => a.post('/api/sms-config/add', add))).toBe('COMMIT');
      const approve = { headers: ADMIN, body: { host: 'sms.last.example.org' } };
      expect(await afterLine(() => a.post('/api/v1/provider-hosts', approve))).toBe('COMMIT');
    } finally {
      watch.mockRestore();
    }
  });

  it('should roll back a change whose COMMIT would come more than 3 s after its line: 503, nothing stored, nothing for B', async () => {
    const key = await keyCachedIn(b);
    const clientId = await clientIdOf(key);
    const highest = await highestId();
    // The line's INSERT answers 3 s after it was sent, as in a stall of the database or of the network to it.
    const query = EntityManager.prototype.query;
    const slowLine = jest.spyOn(EntityManager.prototype, 'query').mockImplementation(async function (
      this: EntityManager,
      sql: string,
      values?: unknown[],
    ) {
      const answered: unknown = await query.call(this, sql, values);
      if (/^INSERT INTO [`"]?change_sequence/.test(sql)) clockOfA.moveOn(3001);
      return answered;
    });

    const refused = await a
      .send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: false } })
      .finally(() => slowLine.mockRestore());
    expect(refused.body).toEqual({ status: 503, error: 'Service temporarily unavailable, retry later' });
    expect(refused.status).toBe(503);

    expect((await a.get(`/api/v1/clients/${clientId}`, ADMIN)).body.results.isActive).toBe(true);
    expect(await linesAbove(highest)).toEqual([]);
    const audited = await a.get(`/api/v1/audit-events?clientId=${clientId}`, ADMIN);
    expect(audited.body.results.items.map((entry: { action: string }) => entry.action)).toEqual(['client.created']);
    await sleep(1000);
    expect((await getClient(b, key)).status).toBe(200);
    expect((await getClient(a, key)).status).toBe(200);

    // The next try commits, and B learns it within a second.
    expect((await a.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: false } })).status).toBe(200);
    await waitFor('B to refuse the disabled client', async () => (await getClient(b, key)).status === 403, 1000);
  });

  it('should forget everything it caches for a message of 1,001 lines, and apply one of 1,000 line by line', async () => {
    const connection = await connect(AMQP_URL);
    try {
      const channel = await connection.createChannel();
      const [{ id: identity }] = await a.dataSource.query<Array<{ id: string }>>('SELECT id FROM deployment');
      const cache = a.app.get(ClientCache);
      const send = (first: string, count: number) => {
        const rest = Array.from({ length: count - 1 }, (_, i) => String(i).padStart(64, 'e'));
        channel.publish(CACHE_INVALIDATION_EXCHANGE, '', Buffer.from([first, ...rest].join('\n')), {
          headers: { [DEPLOYMENT_HEADER]: identity },
        });
      };
      const [named, other] = [await keyCachedIn(a), await keyCachedIn(a)];

      send(`key:${sha256Hex(named)}`, 1000);
      await waitFor('A to apply the message', () => cache.lookupOwner(sha256Hex(named)) === undefined);
      expect(cache.lookupOwner(sha256Hex(other))).toBeDefined();

      const hostsRead = jest.spyOn(a.app.get(ProviderHostRepository), 'allHosts');
      send(`key:${sha256Hex(named)}`, 1001);
      await waitFor('A to forget what it caches', () => cache.lookupOwner(sha256Hex(other)) === undefined);
      expect(cache.size).toBe(0);
      await waitFor('A to read the provider hosts again', () => hostsRead.mock.calls.length > 0);
      hostsRead.mockRestore();
    } finally {
      await connection.close();
    }
  });

  it('should stamp a line by the database clock and prune by it, whatever the clock of the instance says', async () => {
    const highest = await highestId();
    await writeLine(highest + 1, 'old', new Date(Date.now() - HOUR_MS - 60_000));
    await writeLine(highest + 2, 'recent', new Date(Date.now() - HOUR_MS + 60_000));
    const key = await a.addClient();
    const realNow = Date.now();

    // An instance whose clock is two hours behind writes a change: its line must not look two hours old.
    jest.useFakeTimers({ advanceTimers: true, doNotFake: ALL_BUT_DATE, now: realNow - 2 * HOUR_MS });
    expect((await a.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })).status).toBe(200);
    // One two hours ahead prunes: what an hour of the database's clock has not passed stays.
    jest.setSystemTime(realNow + 2 * HOUR_MS);
    expect(await a.app.get(ChangeSequencePruner).prune()).toBeGreaterThanOrEqual(1);
    jest.useRealTimers();

    // Rows of other suites on this database may be past their hour too: these are the test's own.
    expect(await linesAbove(highest)).toEqual(['recent', sha256Hex(key)]);
    const [{ createdAt }] = await a.dataSource.query<Array<{ createdAt: string | Date }>>(
      'SELECT created_at AS createdAt FROM change_sequence WHERE id > ?',
      [highest + 2],
    );
    const stampedMs = createdAt instanceof Date ? createdAt.getTime() : Date.parse(`${createdAt.replace(' ', 'T')}Z`);
    expect(Math.abs(stampedMs - realNow)).toBeLessThan(60_000);
  });

  it('should read the approved provider hosts again within 60 s while it hears the bus, though no message came', async () => {
    await waitFor('A to hear the bus', () => a.app.get(ClientCache).isLive, 10_000);
    const host = 'sms.sixty.example.org';
    expect((await a.post('/api/v1/provider-hosts', { headers: ADMIN, body: { host } })).status).toBe(200);
    const secretKey = await a.addClient();
    const body = validSmsConfig({ smsApi: `https://${host}/send`, providerUrl: null, balanceUrl: null });
    expect((await a.post('/api/sms-config/add', { headers: { secretKey }, body })).status).toBe(200);
    const [{ smsConfigId }] = (await a.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results;
    const approved = async () => (await a.get(`/api/v1/sms-configs/${smsConfigId}`, { secretKey })).body.results.destinationApproved;
    expect(await approved()).toBe(true);

    await a.dataSource.query('DELETE FROM provider_host WHERE host = ?', [host]);
    clockOfA.moveOn(59_000);
    expect(await approved()).toBe(true);
    clockOfA.moveOn(1000);
    expect(await approved()).toBe(false);
  });

  // Last: an app's shutdown closes every broker connection of the process (golevelup keeps them in one registry).
  it('should take an id missing below the highest at its start as missing, and apply its line once it commits', async () => {
    const missing = (await highestId()) + 1;
    await writeLine(missing + 1, 'c'.repeat(64));
    const c = await startTestApp({ DATABASE_URL: url }, { keepData: true });
    try {
      const key = await keyCachedIn(c);
      await disableBehindTheService(key);
      await writeLine(missing, `key:${sha256Hex(key)}`);
      await waitFor('the instance started after to refuse the disabled client', async () => (await getClient(c, key)).status === 403, 2000);
    } finally {
      await c.close();
    }
  });
});
