import { HttpAnswer, ServiceProcess, readAnswer, sleep, sqliteDatabaseUrl } from '../helpers/service-process';
import { freePort } from '../helpers/free-port';

const DRAIN_MS = 1500;

function get(url: string): Promise<HttpAnswer> {
  return fetch(url, { signal: AbortSignal.timeout(5000) }).then(readAnswer);
}

describe('OPS_PORT (the built service)', () => {
  let service: ServiceProcess;
  let opsUrl: string;

  beforeAll(async () => {
    const opsPort = await freePort();
    service = await ServiceProcess.start({
      DATABASE_URL: sqliteDatabaseUrl(),
      OPS_PORT: String(opsPort),
      SHUTDOWN_DELAY_MS: String(DRAIN_MS),
    });
    opsUrl = `http://127.0.0.1:${opsPort}`;
  });
  afterAll(() => service?.stop());

  it('should say both addresses in its "Listening on" line', () => {
    const line = service.logs().find((logged) => logged.includes('Listening on'));
    expect(JSON.parse(line!).msg).toBe(`Listening on ${service.url} (/health and /metrics on ${opsUrl} only)`);
  });

  it('should serve /health and /metrics on OPS_PORT, and answer 404 in the envelope for them on PORT', async () => {
    const health = await get(`${opsUrl}/health`);
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 200, results: { database: 'up', broker: expect.stringMatching(/^(up|down)$/) } });
    const metrics = await get(`${opsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(metrics.raw).toContain('# TYPE http_requests_total counter');

    for (const path of ['/health', '/metrics']) {
      const onApi = await service.request('GET', path);
      expect(onApi.status).toBe(404);
      expect(onApi.body).toEqual({ status: 404, error: `Cannot GET ${path}` });
    }
    // The API itself is where it was.
    expect((await service.addClient()).length).toBeGreaterThan(0);
  });

  it('should answer 503 on OPS_PORT from SIGTERM on, through the drain, then close it and exit 0', async () => {
    service.kill('SIGTERM');
    await sleep(200);
    const draining = await get(`${opsUrl}/health`);
    expect(draining.status).toBe(503);
    expect(draining.body).toEqual({ status: 503, error: 'shutting down' });
    // Still draining: the API serves on.
    expect((await service.request('GET', '/docs-json')).status).toBe(200);
    expect(await service.exited).toEqual({ code: 0, signal: null });
    await expect(get(`${opsUrl}/health`)).rejects.toThrow();
  });
});

describe('Without OPS_PORT (the built service)', () => {
  let service: ServiceProcess;

  beforeAll(async () => {
    service = await ServiceProcess.start({ DATABASE_URL: sqliteDatabaseUrl() });
  });
  afterAll(() => service?.stop());

  it('should serve /health and /metrics on PORT, and say one address only', async () => {
    expect((await service.request('GET', '/health')).status).toBe(200);
    expect((await service.request('GET', '/metrics')).status).toBe(200);
    const line = service.logs().find((logged) => logged.includes('Listening on'));
    expect(JSON.parse(line!).msg).toBe(`Listening on ${service.url}`);
  });
});
