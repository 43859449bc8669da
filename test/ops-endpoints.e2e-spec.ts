import { READ_EVERY_MS } from '../src/client-cache/change-sequence';
import { StatementTally } from '../src/database/statement-tally';
import { Transactions } from '../src/database/transactions';
import { DATABASE_PROBE_INTERVAL_MS, DATABASE_PROBE_TIMEOUT_MS, DatabaseHealth } from '../src/health/database-health';
import { HealthService } from '../src/health/health.service';
import { OpsServer } from '../src/health/ops-server';
import { METRICS_CACHE_MS } from '../src/metrics/metrics-renderer';
import { TestApp, startTestApp } from './helpers/test-app';
import { freePort } from './helpers/free-port';

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Polls /health until it answers `status`; resolves with the answer and the time it took. */
async function healthUntil(t: TestApp, status: number, boundMs: number): Promise<{ body: unknown; ms: number }> {
  const started = Date.now();
  for (;;) {
    const answer = await t.get('/health');
    if (answer.status === status) return { body: answer.body, ms: Date.now() - started };
    if (Date.now() - started > boundMs) throw new Error(`/health still ${answer.status} after ${boundMs} ms`);
    await sleep(50);
  }
}

describe('GET /health, from state the service holds', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('should send no database query for 200 calls, beyond the background probes due meanwhile', async () => {
    const sent = jest.spyOn(t.app.get(StatementTally), 'started');
    try {
      const started = Date.now();
      for (let call = 0; call < 200; call++) expect((await t.get('/health')).status).toBe(200);
      const elapsed = Date.now() - started;
      // And the change sequence's reads, one per interval whatever the traffic.
      const probesDue = 1 + Math.floor(elapsed / DATABASE_PROBE_INTERVAL_MS) + 1 + Math.floor(elapsed / READ_EVERY_MS);
      expect(sent.mock.calls.length).toBeLessThanOrEqual(probesDue);
    } finally {
      sent.mockRestore();
    }
  });

  it('should report a database that stops answering within the probe interval and timeout, and its return', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const ping = jest.spyOn(t.app.get(Transactions), 'ping').mockRejectedValue(refused);
    // A database that stops answering answers no other statement either: the change sequence's reads would report it up.
    const anyStatement = jest.spyOn(t.app.get(DatabaseHealth), 'succeeded').mockImplementation(() => undefined);
    let down: { body: unknown; ms: number };
    try {
      down = await healthUntil(t, 503, DATABASE_PROBE_INTERVAL_MS + DATABASE_PROBE_TIMEOUT_MS + 500);
    } finally {
      ping.mockRestore();
      anyStatement.mockRestore();
    }
    expect(down.body).toEqual({ status: 503, error: 'database is down' });
    const up = await healthUntil(t, 200, DATABASE_PROBE_INTERVAL_MS + 500);
    expect(up.body).toEqual({ status: 200, results: { database: 'up', broker: expect.stringMatching(/^(up|down)$/) } });
  });
});

describe('GET /metrics, rendered at most once a second', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_IP: '3', RATE_LIMIT_WINDOW_MS: '60000' });
  });
  afterAll(() => t.close());

  it('should give scrapes within the window the same text, and a new one after it', async () => {
    const first = await t.get('/metrics');
    await t.get('/health');
    const second = await t.get('/metrics');
    expect(first.status).toBe(200);
    expect(second.raw).toBe(first.raw);
    await sleep(METRICS_CACHE_MS);
    const third = await t.get('/metrics');
    expect(third.status).toBe(200);
    expect(third.raw).not.toBe(first.raw);
  });

  it('should never rate limit /metrics or /health, while calls without a credential from the same address are', async () => {
    for (let i = 0; i < 3; i++) expect((await t.post('/api/client/get/secretKey', { remoteAddress: '127.0.0.1' })).status).toBe(401);
    expect((await t.post('/api/client/get/secretKey', { remoteAddress: '127.0.0.1' })).status).toBe(429);
    for (let i = 0; i < 10; i++) {
      expect((await t.get('/metrics')).status).toBe(200);
      expect((await t.get('/health')).status).toBe(200);
    }
  });
});

describe('OPS_PORT', () => {
  describe('set', () => {
    let t: TestApp;
    let opsUrl: string;

    beforeAll(async () => {
      const port = await freePort();
      t = await startTestApp({ OPS_PORT: String(port), HOST: '127.0.0.1' });
      const address = await t.app.get(OpsServer).listen();
      expect(address).toMatchObject({ address: '127.0.0.1', port });
      opsUrl = `http://127.0.0.1:${port}`;
    });
    afterAll(() => t?.close());

    it('should answer 404 in the envelope for /health and /metrics on the API port', async () => {
      for (const path of ['/health', '/metrics']) {
        const answer = await t.get(path);
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ status: 404, error: `Cannot GET ${path}` });
      }
    });

    it('should serve /health and /metrics on the ops port, and nothing else', async () => {
      const health = await fetch(`${opsUrl}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 200, results: { database: 'up', broker: expect.stringMatching(/^(up|down)$/) } });
      const metrics = await fetch(`${opsUrl}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await metrics.text()).toContain('# TYPE db_queries_in_flight gauge');
      const api = await fetch(`${opsUrl}/api/client/get/secretKey`, { method: 'POST' });
      expect(api.status).toBe(404);
      expect(await api.json()).toEqual({ status: 404, error: 'Cannot POST /api/client/get/secretKey' });
    });

    it('should answer 503 on the ops port while draining, and close it with the application', async () => {
      t.app.get(HealthService).markShuttingDown();
      const draining = await fetch(`${opsUrl}/health`);
      expect(draining.status).toBe(503);
      expect(await draining.json()).toEqual({ status: 503, error: 'shutting down' });
      await t.close();
      await expect(fetch(`${opsUrl}/health`)).rejects.toThrow();
    });
  });

  describe('unset', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('should serve /health and /metrics on the API port, and open no other', async () => {
      expect(await t.app.get(OpsServer).listen()).toBeUndefined();
      expect((await t.get('/health')).status).toBe(200);
      const metrics = await t.get('/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.raw).toContain('# TYPE http_requests_total counter');
    });
  });
});

describe('DOCS_ENABLED', () => {
  it('should serve the Swagger UI and the OpenAPI document under /docs by default', async () => {
    const t = await startTestApp();
    try {
      expect((await t.get('/docs')).status).toBe(200);
      const document = await t.get('/docs-json');
      expect(document.status).toBe(200);
      expect(document.body.openapi).toMatch(/^3\./);
    } finally {
      await t.close();
    }
  });

  it('should answer 404 in the envelope for the UI, its assets and the document with DOCS_ENABLED=false', async () => {
    const t = await startTestApp({ DOCS_ENABLED: 'false' });
    try {
      for (const path of ['/docs', '/docs/', '/docs/swagger-ui-bundle.js', '/docs-json']) {
        const answer = await t.get(path);
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ status: 404, error: `Cannot GET ${path}` });
      }
      expect((await t.get('/health')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
