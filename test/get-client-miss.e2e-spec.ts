import { sha256Hex } from '../src/auth/digest';
import { generateSecretKey } from '../src/auth/secret-key';
import { ClientCache } from '../src/client-cache/client-cache';
import { clientCacheMisses } from '../src/client-cache/client-cache.metrics';
import { ClientService } from '../src/client/client.service';
import { GetClientRepository, MAX_DIGESTS_PER_READ } from '../src/client/get-client.repository';
import { ADMIN_API_KEY, Answer, TestApp, startTestApp, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
/** Room for this instance's own invalidations to come back through the broker (they are batched over 5 ms). */
const ECHO_MS = 150;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Everything a caller can tell two answers apart by, but for what differs per request. */
function visible({ status, headers, raw }: Answer): unknown {
  const { 'x-request-id': _id, date: _date, ...rest } = headers;
  return { status, headers: rest, raw };
}

async function missCount(): Promise<number> {
  return (await clientCacheMisses.get()).values.reduce((sum, { value }) => sum + value, 0);
}

describe('get-client on a cache miss', () => {
  let t: TestApp;
  let cache: ClientCache;
  let repository: GetClientRepository;
  const getClient = (secretKey: string) => t.post('/api/client/get/secretKey', { headers: { secretKey } });
  const clientIdOf = async (appName: string) =>
    (await t.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;

  beforeAll(async () => {
    t = await startTestApp();
    cache = t.app.get(ClientCache);
    repository = t.app.get(GetClientRepository);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await t.reset();
  });
  afterAll(() => t.close());

  /**
   * The same key asked twice: first with nothing cached about it (a miss, which reads the database), then with what
   * that read left in the cache (a hit). The two must be the same bytes.
   */
  async function missThenHit(secretKey: string): Promise<{ miss: Answer; hit: Answer }> {
    await sleep(ECHO_MS);
    cache.clear();
    const reads = jest.spyOn(repository, 'findWithSmsConfigsByDigest');
    const misses = await missCount();
    const miss = await getClient(secretKey);
    // Malformed keys never reach the cache or the database; every other kind is read once, then known.
    const wellFormed = /^sk_[A-Za-z0-9_-]{43}$/.test(secretKey);
    expect(reads).toHaveBeenCalledTimes(wellFormed ? 1 : 0);
    expect(await missCount()).toBe(misses + (wellFormed ? 1 : 0));
    if (wellFormed) expect(cache.lookup(sha256Hex(secretKey))).toBeDefined();
    const hit = await getClient(secretKey);
    expect(reads).toHaveBeenCalledTimes(wellFormed ? 1 : 0);
    expect(visible(hit)).toEqual(visible(miss));
    reads.mockRestore();
    return { miss, hit };
  }

  it('should answer a known key the same on a miss and a hit, and the miss without the guards', async () => {
    const key = await t.addClient({ appName: 'known' });
    await t.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() });
    const authenticate = jest.spyOn(t.app.get(ClientService), 'authenticate');
    const { miss } = await missThenHit(key);
    expect(miss.status).toBe(200);
    expect(miss.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(miss.body.results).toMatchObject({ secretKey: key, appUrl: 'https://billing.example.com', smsConfig: [expect.any(Object)] });
    // Answered at the edge: Nest's guards (which authenticate the key) never ran.
    expect(authenticate).not.toHaveBeenCalled();
  });

  it('should answer an unknown key the same on a miss and a hit: 404', async () => {
    const { miss } = await missThenHit(generateSecretKey());
    expect(miss.body).toEqual({ status: 404, error: 'No client matches the secretKey' });
  });

  it('should answer a malformed key the same every time: 404', async () => {
    const { miss } = await missThenHit('not-a-key');
    expect(miss.body).toEqual({ status: 404, error: 'No client matches the secretKey' });
  });

  it("should answer a disabled client's key the same on a miss and a hit: 403", async () => {
    const key = await t.addClient({ appName: 'disabled' });
    const clientId = await clientIdOf('disabled');
    expect((await t.send('PATCH', `/api/v1/clients/${clientId}`, { headers: ADMIN, body: { isActive: false } })).status).toBe(200);
    const { miss } = await missThenHit(key);
    expect(miss.body).toEqual({ status: 403, error: 'Client is disabled' });
  });

  it('should answer a rotated key within its grace period the same on a miss and a hit, echoing the key presented', async () => {
    const oldKey = await t.addClient({ appName: 'rotated' });
    const rotated = await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey: oldKey }, body: { graceSeconds: 60 } });
    const newKey = rotated.body.results.secretKey as string;
    const old = await missThenHit(oldKey);
    expect(old.miss.status).toBe(200);
    expect(old.miss.body.results.secretKey).toBe(oldKey);
    const current = await missThenHit(newKey);
    expect(current.miss.body.results.secretKey).toBe(newKey);
    expect({ ...current.miss.body.results, secretKey: oldKey }).toEqual(old.miss.body.results);
  });

  it('should answer a rotated key after its grace period the same on a miss and a hit: 404', async () => {
    const oldKey = await t.addClient();
    const rotated = await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey: oldKey }, body: { graceSeconds: 1 } });
    await sleep(Date.parse(rotated.body.results.previousKeyExpiresAt) - Date.now() + 20);
    const { miss } = await missThenHit(oldKey);
    expect(miss.body).toEqual({ status: 404, error: 'No client matches the secretKey' });
  });

  it("should answer a deleted client's key the same on a miss and a hit: 404", async () => {
    const key = await t.addClient({ appName: 'deleted' });
    expect((await getClient(key)).status).toBe(200);
    expect((await t.send('DELETE', `/api/v1/clients/${await clientIdOf('deleted')}`, { headers: ADMIN })).status).toBe(200);
    const { miss } = await missThenHit(key);
    expect(miss.body).toEqual({ status: 404, error: 'No client matches the secretKey' });
  });

  it('should run one query for concurrent misses of one key', async () => {
    const key = await t.addClient();
    await sleep(ECHO_MS);
    cache.clear();
    const reads = jest.spyOn(repository, 'findWithSmsConfigsByDigest');
    const answers = await Promise.all(Array.from({ length: 20 }, () => getClient(key)));
    expect(reads).toHaveBeenCalledTimes(1);
    expect(new Set(answers.map((answer) => visible(answer) as object).map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0].status).toBe(200);
  });

  it('should not let a miss join a read that started before the key changed', async () => {
    const key = await t.addClient();
    // Cached, then only its answer dropped: who owns the key stays known, so the writes below read nothing.
    expect((await getClient(key)).status).toBe(200);
    expect((await t.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })).status).toBe(200);
    await sleep(ECHO_MS);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const read = repository.findWithSmsConfigsByDigest.bind(repository);
    const reads = jest.spyOn(repository, 'findWithSmsConfigsByDigest').mockImplementationOnce(async (digest, shape) => {
      const found = await read(digest, shape);
      await gate;
      return found;
    });
    const early = getClient(key);
    await sleep(50);
    expect(reads).toHaveBeenCalledTimes(1);
    expect((await t.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })).status).toBe(200);
    const late = await getClient(key);
    expect(reads).toHaveBeenCalledTimes(2);
    expect(late.body.results.smsConfig).toHaveLength(2);
    release();
    expect((await early).body.results.smsConfig).toHaveLength(1);
    // The early read is not stored over the late one.
    expect((await getClient(key)).body.results.smsConfig).toHaveLength(2);
  });

  describe('misses of different keys read together', () => {
    /** Every kind of key a caller can present, each with what makes it that kind already done. */
    async function everyKindOfKey(): Promise<string[]> {
      const known = await t.addClient({ appName: 'known' });
      await t.post('/api/sms-config/add', { headers: { secretKey: known }, body: validSmsConfig() });
      const disabled = await t.addClient({ appName: 'disabled' });
      await t.send('PATCH', `/api/v1/clients/${await clientIdOf('disabled')}`, { headers: ADMIN, body: { isActive: false } });
      const withinGrace = await t.addClient({ appName: 'within' });
      const rotated = await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey: withinGrace }, body: { graceSeconds: 60 } });
      const afterGrace = await t.addClient({ appName: 'after' });
      const expired = await t.post('/api/v1/client/secret-key/rotate', { headers: { secretKey: afterGrace }, body: { graceSeconds: 1 } });
      const deleted = await t.addClient({ appName: 'deleted' });
      await t.send('DELETE', `/api/v1/clients/${await clientIdOf('deleted')}`, { headers: ADMIN });
      await sleep(Date.parse(expired.body.results.previousKeyExpiresAt) - Date.now() + 20);
      const keys = [known, disabled, withinGrace, rotated.body.results.secretKey, afterGrace, deleted, generateSecretKey(), 'not-a-key'];
      return keys;
    }

    it('should answer every kind of key byte for byte the same whether its miss is read alone or with the others', async () => {
      const keys = await everyKindOfKey();
      const alone: unknown[] = [];
      for (const key of keys) {
        await sleep(ECHO_MS);
        cache.clear();
        alone.push(visible(await getClient(key)));
      }
      expect(alone.map((answer) => (answer as Answer).status)).toEqual([200, 403, 200, 200, 404, 404, 404, 404]);

      await sleep(ECHO_MS);
      cache.clear();
      const reads = jest.spyOn(repository, 'findManyWithSmsConfigs');
      const together = await Promise.all(keys.map((key) => getClient(key)));
      expect(together.map(visible)).toEqual(alone);
      // The seven well-formed keys, in one statement.
      expect(reads.mock.calls.map(([digests]) => digests.length)).toEqual([7]);
    });

    it('should never hide a write answered before the read of its batch started', async () => {
      const key = await t.addClient();
      const other = await t.addClient({ appName: 'other' });
      // Cached, then only its answer dropped: who owns the key stays known, so the add below reads nothing.
      expect((await getClient(key)).status).toBe(200);
      expect((await t.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })).status).toBe(200);
      await sleep(ECHO_MS);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const readMany = repository.findManyWithSmsConfigs.bind(repository);
      const reads = jest.spyOn(repository, 'findManyWithSmsConfigs').mockImplementationOnce(async (digests, shape) => {
        await gate;
        return readMany(digests, shape);
      });
      const gathered = Promise.all([getClient(key), getClient(other)]);
      while (reads.mock.calls.length === 0) await sleep(5);
      expect(reads.mock.calls[0][0]).toEqual([sha256Hex(key), sha256Hex(other)]);
      expect((await t.post('/api/sms-config/add', { headers: { secretKey: key }, body: validSmsConfig() })).status).toBe(200);
      release();
      const [answer, otherAnswer] = await gathered;
      expect(answer.body.results.smsConfig).toHaveLength(2);
      expect(otherAnswer.body.results.secretKey).toBe(other);
      expect((await getClient(key)).body.results.smsConfig).toHaveLength(2);
    });

    it(`should read at most ${MAX_DIGESTS_PER_READ} keys in one statement, and answer each its own`, async () => {
      const keys: string[] = [];
      for (let i = 0; i < 2 * MAX_DIGESTS_PER_READ + 6; i++) keys.push(await t.addClient({ appName: `fleet-${i}` }));
      await sleep(ECHO_MS);
      cache.clear();
      const reads = jest.spyOn(repository, 'findManyWithSmsConfigs');
      const answers = await Promise.all(keys.map((key) => getClient(key)));
      expect(answers.map((answer) => [answer.status, answer.body.results.secretKey])).toEqual(keys.map((key) => [200, key]));
      const sizes = reads.mock.calls.map(([digests]) => digests.length);
      expect(Math.max(...sizes)).toBe(MAX_DIGESTS_PER_READ);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(keys.length);
      expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    });
  });

  it('should answer a database failure on a miss through the full way, in the envelope', async () => {
    const key = await t.addClient();
    await sleep(ECHO_MS);
    cache.clear();
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' });
    const reads = jest.spyOn(repository, 'findWithSmsConfigsByDigest').mockRejectedValue(refused);
    const answer = await getClient(key);
    expect(answer.body).toEqual({ status: 503, error: 'Service temporarily unavailable, retry later' });
    // Once at the edge, once more by the full way's guard.
    expect(reads).toHaveBeenCalledTimes(2);
  });
});
