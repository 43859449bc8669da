import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { ADMIN_API_KEY, MYSQL_SERVER_URL } from '../helpers/test-app';
import { ServiceProcess, emptyMysqlDatabase, report, sleep } from '../helpers/service-process';
import { TcpRelay } from '../helpers/tcp-relay';

jest.setTimeout(60000);

const DRAIN_MS = 1000;
/** Longer when requests are held in flight, so the checks made during the drain have room on a loaded machine. */
const BUSY_DRAIN_MS = 2000;

interface Sent {
  /** Resolves once the whole request has been written to the socket. */
  written: Promise<void>;
  answered: Promise<{ status: number; body: any }>;
}

/** A request on its own connection, so "sent before the signal" is observable: its bytes left before SIGTERM. */
function send(url: string, path: string, headers: Record<string, string>, body?: unknown): Sent {
  let markWritten: () => void = () => undefined;
  const written = new Promise<void>((resolve) => (markWritten = resolve));
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const answered = new Promise<{ status: number; body: any }>((resolve, reject) => {
    const request = httpRequest(
      url + path,
      {
        method: 'POST',
        agent: new Agent({ keepAlive: false }),
        headers: {
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
        },
      },
      (response) => {
        let raw = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (raw += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(raw) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.on('finish', () => markWritten());
    request.end(payload);
  });
  return { written, answered };
}

/**
 * A keep-alive connection whose first request is still in flight when the listener closes; as soon as that is
 * answered, a second request follows on the same connection, as an HTTP client with a connection pool does.
 * Resolves with every response the server sent on it.
 */
function sendKeepAlive(url: string, first: string, second: string): { written: Promise<void>; answered: Promise<string[]> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let raw = '';
  let secondSent = false;
  const written = new Promise<void>((resolve) => socket.write(first, () => resolve()));
  const answered = new Promise<string[]>((resolve) => {
    const responses = () => raw.split(/(?=HTTP\/1\.1 )/).filter(Boolean);
    const done = () => resolve(responses());
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      raw += chunk;
      const complete = raw.trimEnd().endsWith('}');
      if (complete && !secondSent) {
        secondSent = true;
        if (/connection: close/i.test(raw)) return;
        socket.write(second);
      } else if (complete && responses().length === 2) done();
    });
    socket.on('close', done);
    socket.on('error', done);
  });
  return { written, answered: answered.finally(() => socket.destroy()) };
}

describe('Graceful shutdown (SIGTERM to the built service)', () => {
  let relay: TcpRelay;
  let databaseUrl: string;

  beforeAll(async () => {
    const mysql = new URL(MYSQL_SERVER_URL);
    relay = await TcpRelay.start(mysql.hostname, Number(mysql.port || 3306));
    databaseUrl = relay.rewrite(await emptyMysqlDatabase('shutdown'));
  });
  afterAll(() => relay?.close());

  it('should answer every request sent before SIGTERM, turn /health 503 while draining, and exit 0 within 10 s', async () => {
    const service = await ServiceProcess.start({ DATABASE_URL: databaseUrl, SHUTDOWN_DELAY_MS: String(BUSY_DRAIN_MS) });
    try {
      const secretKey = await service.addClient();
      // The database holds every query, so these requests are still in flight when the listener closes.
      relay.freeze();
      const inFlight = Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? send(service.url, '/api/client/get/secretKey', { secretKey })
          : send(
              service.url,
              '/api/client/add',
              { 'x-api-key': ADMIN_API_KEY },
              { appName: `s${i}`, appUrl: 'https://s.example.com', isHost: false },
            ),
      );
      const keepAlive = sendKeepAlive(
        service.url,
        `POST /api/client/get/secretKey HTTP/1.1\r\nHost: x\r\nsecretKey: ${secretKey}\r\nContent-Length: 0\r\n\r\n`,
        'GET /health HTTP/1.1\r\nHost: x\r\n\r\n',
      );
      await Promise.all([...inFlight.map((sent) => sent.written), keepAlive.written]);
      await sleep(300);

      const signalledAt = Date.now();
      service.kill('SIGTERM');
      await sleep(200);
      const health = await service.request('GET', '/health');
      const healthAfter = Date.now() - signalledAt;
      expect(health.status).toBe(503);
      expect(health.body).toEqual({ status: 503, error: 'shutting down' });
      // Still serving during the drain delay: a request needing no database is answered normally.
      const duringDrain = await service.request('GET', '/docs-json');
      expect(duringDrain.status).toBe(200);
      expect(Date.now() - signalledAt).toBeLessThan(BUSY_DRAIN_MS);

      await sleep(BUSY_DRAIN_MS + 400 - (Date.now() - signalledAt));
      // The listener is closed now, while the requests above are still waiting for the database.
      await expect(service.request('GET', '/health', { timeoutMs: 2000 })).rejects.toThrow();
      await relay.restore();

      const answers = await Promise.all(inFlight.map((sent) => sent.answered));
      const lastAnswerAfter = Date.now() - signalledAt;
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
      for (const answer of answers) expect(answer.body.status).toBe(200);
      // The in-flight one is answered; a request that still arrives on its connection gets the envelope, not a bare 503.
      const [first, ...later] = await keepAlive.answered;
      expect(first).toMatch(/^HTTP\/1\.1 200 /);
      expect(later).toHaveLength(1);
      expect(later[0]).toMatch(/^HTTP\/1\.1 503 /);
      expect(later[0]).toContain('{"status":503,"error":"shutting down"}');

      const exit = await service.exited;
      const exitAfter = Date.now() - signalledAt;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(exitAfter).toBeLessThan(10000);
      report('SIGTERM with 20 requests in flight', {
        'health 503 after': healthAfter,
        'last in-flight answer': lastAnswerAfter,
        exit: exitAfter,
      });
    } finally {
      await relay.restore();
      await service.stop();
    }
  });

  it('should exit 0 soon after the drain delay when idle, with no error line while a load balancer probes it', async () => {
    const service = await ServiceProcess.start({ DATABASE_URL: databaseUrl, SHUTDOWN_DELAY_MS: String(DRAIN_MS) });
    try {
      await service.addClient();
      const signalledAt = Date.now();
      service.kill('SIGTERM');
      await sleep(100);
      // A load balancer's probes during the drain: turned away, which is the drain working, not an error.
      for (let probe = 0; probe < 3; probe++) {
        expect((await service.request('GET', '/health')).status).toBe(503);
        await sleep(100);
      }
      const exit = await service.exited;
      const exitAfter = Date.now() - signalledAt;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(exitAfter).toBeGreaterThanOrEqual(DRAIN_MS);
      expect(exitAfter).toBeLessThan(DRAIN_MS + 5000);
      expect(service.logs().join('\n')).toContain('SIGTERM received: draining for 1000 ms');
      const lines = service
        .logs()
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: number; statusCode?: number; route?: string });
      expect(lines.filter((line) => line.route === '/health' && line.statusCode === 503)).toEqual(
        Array(3).fill(expect.objectContaining({ level: 30 })),
      );
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      report('SIGTERM idle', { exit: exitAfter });
    } finally {
      await service.stop();
    }
  });

  it('should still exit within 10 s when the database hangs through the shutdown', async () => {
    const service = await ServiceProcess.start({ DATABASE_URL: databaseUrl, SHUTDOWN_DELAY_MS: String(DRAIN_MS) });
    try {
      const secretKey = await service.addClient();
      relay.freeze();
      const stuck = service.post('/api/client/get/secretKey', { headers: { secretKey } });
      await sleep(200);
      const signalledAt = Date.now();
      service.kill('SIGTERM');
      // The request in flight gets its 503 from the request deadline; the shutdown does not wait on the database.
      expect((await stuck).body).toEqual({ status: 503, error: 'Service temporarily unavailable, retry later' });
      const exit = await service.exited;
      const exitAfter = Date.now() - signalledAt;
      expect(exitAfter).toBeLessThan(10000);
      // Closing the pool cannot finish cleanly on a hung connection: the shutdown deadline ends the process (code 1).
      expect(exit.signal).toBeNull();
      report('SIGTERM with the database hung', { exit: exitAfter, code: String(exit.code) });
    } finally {
      await relay.restore();
      await service.stop();
    }
  });
});
