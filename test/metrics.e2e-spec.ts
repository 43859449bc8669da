import { ClientCache, ENTRY_OVERHEAD_BYTES } from '../src/client-cache/client-cache';
import { DEFAULT_CLIENT_CACHE_MB } from '../src/config/app-config';
import { DataSource } from 'typeorm';
import { METRICS_CACHE_MS } from '../src/metrics/metrics-renderer';
import { TestApp, startTestApp } from './helpers/test-app';

/** A rendering is served again for METRICS_CACHE_MS: a scrape that must see what just happened waits it out. */
const pastTheCachedRendering = () => new Promise((resolve) => setTimeout(resolve, METRICS_CACHE_MS));

/** The value of one sample line of the Prometheus text, 0 when it is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',');
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return 0;
}

describe('GET /metrics', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('should answer Prometheus text without the admin key, with the service and process metrics', async () => {
    await t.get('/health');
    const answer = await t.get('/metrics');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    for (const name of [
      '# TYPE http_requests_total counter',
      '# TYPE http_request_duration_seconds histogram',
      '# TYPE db_queries_in_flight gauge',
      '# TYPE broker_connected gauge',
      '# TYPE process_cpu_user_seconds_total counter',
      '# TYPE nodejs_eventloop_lag_seconds gauge',
    ]) {
      expect(answer.raw).toContain(name);
    }
    expect(sample(answer.raw, 'broker_connected', {})).toBeGreaterThanOrEqual(0);
    expect(sample(answer.raw, 'broker_connected', {})).toBeLessThanOrEqual(1);
    expect(answer.raw).toMatch(/^db_queries_in_flight \d+$/m);
  });

  it('should show what the get-client cache holds against its budget, and its hits and misses', async () => {
    t.app.get(ClientCache).clear();
    const key = await t.addClient();
    await pastTheCachedRendering();
    const before = (await t.get('/metrics')).raw;
    await t.post('/api/client/get/secretKey', { headers: { secretKey: key } });
    await t.post('/api/client/get/secretKey', { headers: { secretKey: key } });
    await pastTheCachedRendering();
    const after = (await t.get('/metrics')).raw;
    expect(sample(after, 'client_cache_budget_bytes', {})).toBe(DEFAULT_CLIENT_CACHE_MB * 1024 * 1024);
    expect(sample(after, 'client_cache_entries', {})).toBe(sample(before, 'client_cache_entries', {}) + 1);
    const answerBytes = sample(after, 'client_cache_bytes', {}) - sample(before, 'client_cache_bytes', {});
    expect(answerBytes).toBeGreaterThan(ENTRY_OVERHEAD_BYTES + 200);
    expect(answerBytes).toBeLessThan(ENTRY_OVERHEAD_BYTES + 1000);
    expect(sample(after, 'client_cache_misses_total', {}) - sample(before, 'client_cache_misses_total', {})).toBe(1);
    const hits = (text: string) => sample(text, 'client_cache_hits_total', { kind: 'found' });
    expect(hits(after) - hits(before)).toBe(1);
  });

  it('should count each request under its route pattern and status, and time it', async () => {
    const labels = { method: 'GET', route: '/health', status: '200' };
    await pastTheCachedRendering();
    const before = sample((await t.get('/metrics')).raw, 'http_requests_total', labels);
    await t.get('/health');
    await t.get('/health');
    await pastTheCachedRendering();
    const after = (await t.get('/metrics')).raw;
    expect(sample(after, 'http_requests_total', labels)).toBe(before + 2);
    expect(sample(after, 'http_request_duration_seconds_count', labels)).toBe(before + 2);
  });

  it('should give the same request counts to scrapes that arrive together (two Prometheus servers)', async () => {
    await t.get('/health');
    const labels = { method: 'GET', route: '/health', status: '200' };
    const scrapes = await Promise.all([t.get('/metrics'), t.get('/metrics'), t.get('/metrics')]);
    const counts = scrapes.map((scrape) => sample(scrape.raw, 'http_requests_total', labels));
    const histogramCount = sample(scrapes[0].raw, 'http_request_duration_seconds_count', labels);
    expect(counts).toEqual([histogramCount, histogramCount, histogramCount]);
  });

  it('should count refusals and unknown routes under fixed labels, never the raw URL', async () => {
    await t.post('/api/client/add', { headers: { 'x-api-key': 'wrong' }, body: {} });
    await t.get('/scan/wp-admin/123');
    await pastTheCachedRendering();
    const text = (await t.get('/metrics')).raw;
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '/api/client/add', status: '401' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('wp-admin');
  });

  it('should count the database statements in flight, from the service’s own count (no driver internals)', async () => {
    const inFlight = async () => {
      await pastTheCachedRendering();
      return sample((await t.get('/metrics')).raw, 'db_queries_in_flight', {});
    };
    // The outbox relay looks for events every second: a scrape may catch its statement. Each figure is the one read
    // at least once in a few scrapes.
    const readsOf = async (scrapes: number) => {
      const values: number[] = [];
      for (let scrape = 0; scrape < scrapes; scrape++) values.push(await inFlight());
      return values;
    };
    expect(await readsOf(3)).toContain(0);
    if (process.env.TEST_DATABASE === 'mysql') {
      // SQLite answers on the event loop itself, so nothing can be seen in flight there.
      // Two scrapes fit within it, and it within the statements' 4 s bound.
      const slow = t.app.get(DataSource).query(`SELECT SLEEP(${(2 * METRICS_CACHE_MS + 1200) / 1000})`);
      const whileSlow = await readsOf(2);
      expect(whileSlow).toContain(1);
      expect(Math.min(...whileSlow)).toBeGreaterThanOrEqual(1);
      await slow;
    }
    expect(await readsOf(3)).toContain(0);
  });
});

describe('GET /metrics with METRICS_ENABLED=false', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ METRICS_ENABLED: 'false' });
  });
  afterAll(() => t.close());

  it('should answer 404 in the envelope', async () => {
    const answer = await t.get('/metrics');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ status: 404, error: 'Cannot GET /metrics' });
  });
});
