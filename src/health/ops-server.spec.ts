import type { FastifyInstance } from 'fastify';
import { MetricsRenderer } from '../metrics/metrics-renderer';
import { HealthService, Readiness } from './health.service';
import { createOpsFastify } from './ops-server';

describe('createOpsFastify', () => {
  let readiness: Readiness;
  let ops: FastifyInstance;
  const health = { readiness: () => readiness } as HealthService;
  const metrics = {
    contentType: 'text/plain; version=0.0.4; charset=utf-8',
    render: () => Promise.resolve('# TYPE up gauge\nup 1\n'),
  } as MetricsRenderer;

  afterEach(() => ops.close());

  it('should answer /health from the service’s readiness: 200, the database down, the drain', async () => {
    ops = createOpsFastify({ health, metrics });
    readiness = { status: 200, results: { database: 'up', broker: 'down' } };
    let answer = await ops.inject({ method: 'GET', url: '/health' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ status: 200, results: { database: 'up', broker: 'down' } });
    expect(answer.headers).toMatchObject({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });

    readiness = { status: 503, error: 'database is down', draining: false };
    answer = await ops.inject({ method: 'GET', url: '/health' });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ status: 503, error: 'database is down' });

    readiness = { status: 503, error: 'shutting down', draining: true };
    answer = await ops.inject({ method: 'GET', url: '/health' });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ status: 503, error: 'shutting down' });
  });

  it('should answer /metrics with the rendered text and its content type', async () => {
    ops = createOpsFastify({ health, metrics });
    const answer = await ops.inject({ method: 'GET', url: '/metrics' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(answer.body).toBe('# TYPE up gauge\nup 1\n');
  });

  it('should answer 404 in the envelope for /metrics when metrics are off, and for any other path or method', async () => {
    ops = createOpsFastify({ health });
    for (const [method, url] of [
      ['GET', '/metrics'],
      ['GET', '/api/client/add?x=1'],
      ['POST', '/health'],
      ['GET', '/docs'],
    ] as const) {
      const answer = await ops.inject({ method, url });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ status: 404, error: `Cannot ${method} ${url.split('?')[0]}` });
    }
  });

  it('should answer 500 in the envelope, with no detail, when rendering the metrics fails', async () => {
    ops = createOpsFastify({
      health,
      metrics: { ...metrics, render: () => Promise.reject(new Error('collect failed: /proc')) },
    });
    const answer = await ops.inject({ method: 'GET', url: '/metrics' });
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({ status: 500, error: 'Internal server error' });
  });
});
