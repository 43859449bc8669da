import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { FastifyInstance, fastify } from 'fastify';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '../config/app-config';
import { MetricsRenderer } from '../metrics/metrics-renderer';
import { HealthService } from './health.service';

export interface OpsRoutes {
  health: HealthService;
  metrics?: MetricsRenderer;
}

const OPS_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

export function createOpsFastify({ health, metrics }: OpsRoutes): FastifyInstance {
  // While it closes (after the API's listener), probes on open connections still get the drain's 503 from /health.
  const ops = fastify({ logger: false, bodyLimit: 1024, return503OnClosing: false });
  ops.addHook('onRequest', async (_request, reply) => {
    void reply.headers(OPS_HEADERS);
  });
  ops.get('/health', async (_request, reply) => {
    const readiness = health.readiness();
    return reply.code(readiness.status).send(readiness.status === 200 ? readiness : { status: 503, error: readiness.error });
  });
  if (metrics) {
    ops.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.render()));
  }
  ops.setNotFoundHandler(async (request, reply) =>
    reply.code(404).send({ status: 404, error: `Cannot ${request.method} ${request.url.split('?')[0]}` }),
  );
  ops.setErrorHandler(async (error, _request, reply) => {
    const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
    const status = typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500 ? statusCode : 500;
    return reply.code(status).send({ status, error: status === 500 ? 'Internal server error' : 'Bad request' });
  });
  return ops;
}

@Injectable()
export class OpsServer implements OnApplicationShutdown {
  private server?: FastifyInstance;

  constructor(
    private readonly config: ConfigService<AppConfig, true>,
    private readonly health: HealthService,
    private readonly metrics: MetricsRenderer,
  ) {}

  async listen(): Promise<AddressInfo | undefined> {
    const port = this.config.get('opsPort', { infer: true });
    if (port === undefined) return undefined;
    const metricsEnabled = this.config.get('metricsEnabled', { infer: true });
    this.server = createOpsFastify({ health: this.health, metrics: metricsEnabled ? this.metrics : undefined });
    await this.server.listen({ port, host: this.config.get('host', { infer: true }) });
    return this.server.server.address() as AddressInfo;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
  }
}
