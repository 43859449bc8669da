import { randomBytes } from 'node:crypto';
import { Socket, connect } from 'node:net';
import { ServiceProcess, report, sqliteDatabaseUrl } from '../helpers/service-process';

interface LoadResult {
  '2xx': number;
  '4xx': number;
  '5xx': number;
  errors: number;
  timeouts: number;
}
interface LoadRequest {
  method: string;
  path: string;
  setupRequest: (request: Record<string, unknown>) => Record<string, unknown>;
}
/** autocannon (the benchmark's load generator) ships no types. */
const autocannon = require('autocannon') as (options: {
  url: string;
  connections: number;
  amount: number;
  requests: LoadRequest[];
}) => Promise<LoadResult>;

jest.setTimeout(240_000);

const GET_CLIENT = '/api/client/get/secretKey';

/** A sample of the service's own metrics, by name and labels as the text shows them. */
async function metrics(service: ServiceProcess): Promise<Map<string, number>> {
  const text = (await service.request('GET', '/metrics')).raw;
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (match) samples.set(match[1], Number(match[2]));
  }
  return samples;
}

const randomAddress = () => [10 + (randomBytes(1)[0] % 200), ...randomBytes(3)].join('.');
const madeUpKey = (index: number) =>
  index % 2 === 0 ? `sk_${randomBytes(32).toString('base64url')}` : randomBytes(1 + (index % 90)).toString('base64');

/** Sends `amount` get-client requests, each with a made-up key from a made-up address (X-Forwarded-For). */
async function sendMadeUpKeys(service: ServiceProcess, amount: number): Promise<Record<string, number>> {
  let index = 0;
  const result = await autocannon({
    url: service.url,
    connections: 50,
    amount,
    requests: [
      {
        method: 'POST',
        path: GET_CLIENT,
        setupRequest: (request) => ({
          ...request,
          headers: { secretKey: madeUpKey(index++), 'x-forwarded-for': randomAddress() },
        }),
      },
    ],
  });
  return { 200: result['2xx'], 400: result['4xx'], 500: result['5xx'], errors: result.errors, timeouts: result.timeouts };
}

describe('Made-up keys from many addresses', () => {
  let service: ServiceProcess;

  beforeAll(async () => {
    // Trusting the local peer as a load balancer lets one test client speak for 200,000 addresses.
    // The heap is bounded by V8 itself: past 128 MB of old space the process dies. The start, the address counters at
    // their bound and the cache full of unknown keys (its 32 MB budget) measured about 38, 91 and 103 MB of heapUsed
    // (garbage included) after 0, 100,000 and 200,000 requests; a map that kept every made-up key (about 320 B each,
    // 64 MB more) would not fit. At 96 MB the legitimate maps alone came within a GC of the limit.
    // A window longer than the run, so that no address counter expires before the map reaches its bound, however fast
    // the machine sends: 100,000 requests took 60 s or more here, and counters expired as the second pass went on.
    service = await ServiceProcess.start({
      DATABASE_URL: sqliteDatabaseUrl(),
      TRUST_PROXY: '127.0.0.1',
      NODE_OPTIONS: '--max-old-space-size=128',
      RATE_LIMIT_WINDOW_MS: '600000',
    });
  });
  afterAll(() => service.stop());

  it('should keep no counter per made-up key, and hold the address counters and the heap to their bounds', async () => {
    const before = await metrics(service);
    const first = await sendMadeUpKeys(service, 100_000);
    const afterFirst = await metrics(service);
    const second = await sendMadeUpKeys(service, 100_000);
    const afterSecond = await metrics(service);
    const heapMb = (sample: Map<string, number>) => Math.round(sample.get('nodejs_heap_size_used_bytes')! / 2 ** 20);
    report('200,000 made-up keys', {
      heapBefore: `${heapMb(before)} MB`,
      heapAfter100k: `${heapMb(afterFirst)} MB`,
      heapAfter200k: `${heapMb(afterSecond)} MB`,
      addressesTracked: String(afterSecond.get('rate_limit_tracked{kind="address"}')),
      credentialsTracked: String(afterSecond.get('rate_limit_tracked{kind="credential"}')),
    });

    for (const round of [first, second]) expect(round).toEqual({ 200: 0, 400: 100_000, 500: 0, errors: 0, timeouts: 0 });
    // No made-up key is ever counted; addresses are, up to the map's bound of 100,000 (each is another caller).
    expect(afterSecond.get('rate_limit_tracked{kind="credential"}')).toBe(0);
    expect(afterFirst.get('rate_limit_tracked{kind="address"}')).toBeLessThanOrEqual(100_000);
    expect(afterSecond.get('rate_limit_tracked{kind="address"}')).toBe(100_000);
    // Within its 128 MB old space the whole time (heapUsed also counts garbage, so the figures above are reported, not
    // compared): still the same process, still serving.
    expect(service.child.exitCode).toBeNull();
    expect((await service.request('GET', '/health')).status).toBe(200);
  });
});

/** Opens a connection, writes `chunks` one every `everyMs`, and says when and how the service closed it. */
function trickle(url: string, chunks: string[], everyMs: number): Promise<{ closedAfterMs: number; answer: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    let answer = '';
    const socket: Socket = connect(Number(port), hostname);
    let next = 0;
    const timer = setInterval(() => {
      if (next < chunks.length && socket.writable) socket.write(chunks[next++]);
    }, everyMs);
    socket.on('data', (data) => (answer += data.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, answer });
    });
  });
}

const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);

describe('Slow and idle clients', () => {
  const TIMEOUT_MS = 2000;
  let service: ServiceProcess;

  beforeAll(async () => {
    service = await ServiceProcess.start({ DATABASE_URL: sqliteDatabaseUrl(), HTTP_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) });
  });
  afterAll(() => service.stop());

  // Node checks for expired requests every tenth of the timeout: the close comes within 1.1 times it, plus a margin.
  const closedInTime = (closedAfterMs: number) => expect(closedAfterMs).toBeLessThan(TIMEOUT_MS * 1.1 + 500);

  it('should answer 408 in the envelope and close the socket of a body that trickles in', async () => {
    const headers = `POST /api/client/add HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const { closedAfterMs, answer } = await trickle(service.url, [headers, ...'{"appName":"slow"'.split('')], 300);
    report('slow body', { closedAfterMs });
    closedInTime(closedAfterMs);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(bodyOf(answer))).toEqual({ status: 408, error: 'Request not received in time' });
  });

  it('should answer 408 and close the socket of headers that trickle in', async () => {
    const { closedAfterMs, answer } = await trickle(service.url, `POST ${GET_CLIENT} HTTP/1.1\r\nHost: x\r\nX-Slow: yes`.split(''), 100);
    report('slow headers', { closedAfterMs });
    closedInTime(closedAfterMs);
    expect(JSON.parse(bodyOf(answer))).toEqual({ status: 408, error: 'Request not received in time' });
  });

  it('should close a connection that never sends a byte', async () => {
    const { closedAfterMs } = await trickle(service.url, [], 1000);
    report('idle connection', { closedAfterMs });
    closedInTime(closedAfterMs);
  });

  it('should log no error for a request the caller did not finish', async () => {
    const headers = `POST /api/client/add HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a`;
    await trickle(service.url, [headers], 10);
    const errors = service.logs().filter((line) => /"level":(50|60)/.test(line));
    expect(errors).toEqual([]);
  });
});

describe('A body still arriving at the request deadline', () => {
  let service: ServiceProcess;

  beforeAll(async () => {
    service = await ServiceProcess.start({ DATABASE_URL: sqliteDatabaseUrl() });
  });
  afterAll(() => service.stop());

  it('should be answered 408 at the 4.5 s deadline, well before the 10 s request timeout, and its socket closed', async () => {
    const headers = `POST /api/client/add HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const { closedAfterMs, answer } = await trickle(service.url, [headers, ...'{"appName":"slow","x":"'.split('')], 300);
    report('body at the deadline', { closedAfterMs });
    expect(closedAfterMs).toBeGreaterThanOrEqual(4500);
    expect(closedAfterMs).toBeLessThan(6000);
    expect(JSON.parse(bodyOf(answer))).toEqual({ status: 408, error: 'Request body not received within 4.5 s' });
  });
});

describe('A flood of connections', () => {
  let service: ServiceProcess;

  beforeAll(async () => {
    service = await ServiceProcess.start({ DATABASE_URL: sqliteDatabaseUrl(), HTTP_MAX_CONNECTIONS: '20' });
  });
  afterAll(() => service.stop());

  it('should close connections past HTTP_MAX_CONNECTIONS at once, and serve again once they are gone', async () => {
    const { hostname, port } = new URL(service.url);
    let closedByService = 0;
    const sockets = Array.from({ length: 50 }, () => {
      const socket = connect(Number(port), hostname);
      socket.on('error', () => undefined);
      socket.on('close', () => closedByService++);
      return socket;
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(closedByService).toBe(30);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await service.request('GET', '/health')).status).toBe(200);
  });
});
