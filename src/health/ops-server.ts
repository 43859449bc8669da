import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { FastifyInstance, fastify } from 'fastify';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '../config/app-config';
import { MetricsRenderer } from '../metrics/metrics-renderer';
import { HealthService } from './health.service';

export interface OpsRoutes {
  health: HealthService;
  /** Unset when METRICS_ENABLED=false: /metrics is then a 404 like any unknown path. */
  metrics?: MetricsRenderer;
}

/** Answers of the ops port: nothing to cache, sniff or frame. */
const OPS_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/** A Fastify instance of its own with /health and /metrics only, answering as the API port does, in the envelope. */
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

/**
 * With OPS_PORT set, /health and /metrics are served on that port only (bound to HOST), and the API port answers 404
 * for them: probes and scrapes stay off the API's port, its rate limits, access log and request metrics. main.ts opens
 * it once the API listens (ready means the API can be reached); it closes after the API's listener, on shutdown, so
 * probes see the drain's 503 until the end.
 */
@Injectable()
export class OpsServer implements OnApplicationShutdown {
  private server?: FastifyInstance;

  constructor(
    private readonly config: ConfigService<AppConfig, true>,
    private readonly health: HealthService,
    private readonly metrics: MetricsRenderer,
  ) {}

  /** Listens on OPS_PORT; resolves with the address, or undefined when OPS_PORT is unset. */
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
