import { Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { InjectMetric, PrometheusModule, makeCounterProvider, makeHistogramProvider } from '@willsoto/nestjs-prometheus';
import { FastifyInstance } from 'fastify';
import { Counter, Gauge, GaugeConfiguration, Histogram, register } from 'prom-client';
import { DataSource } from 'typeorm';
import { BrokerModule } from '../broker/broker.module';
import { BrokerService } from '../broker/broker.service';
import { UNMATCHED_ROUTE } from '../logging/logger-options';
import { MetricsController } from './metrics.controller';

const HTTP_LABELS = ['method', 'route', 'status'];
const DB_POOL_GAUGE = 'db_pool_connections_in_use';
const BROKER_GAUGE = 'broker_connected';

/** Counts and times every answer (404s and guard refusals too) in a Fastify hook: no interceptor misses them. */
@Injectable()
class HttpMetricsHook implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @InjectMetric('http_requests_total') private readonly requests: Counter<string>,
    @InjectMetric('http_request_duration_seconds') private readonly duration: Histogram<string>,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onResponse', (request, reply, done) => {
      // The route pattern, never the raw URL: label values stay few whatever callers send.
      const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status: String(reply.statusCode) };
      this.requests.inc(labels);
      this.duration.observe(labels, reply.elapsedTime / 1000);
      done();
    });
  }
}

/** Gauges read at scrape time from this application's pool and broker; a new application replaces the old gauge. */
function freshGauge(configuration: GaugeConfiguration<string>): Gauge<string> {
  register.removeSingleMetric(configuration.name);
  return new Gauge(configuration);
}

function connectionsInUse(dataSource: DataSource): number {
  if (dataSource.options.type !== 'mysql' || !dataSource.isInitialized) return 0;
  // mysql2 has no public count of busy connections: all of the pool's connections minus the free ones.
  const pool = (dataSource.driver as unknown as { pool?: { _allConnections?: { length: number }; _freeConnections?: { length: number } } })
    .pool;
  return Math.max(0, (pool?._allConnections?.length ?? 0) - (pool?._freeConnections?.length ?? 0));
}

@Module({
  imports: [PrometheusModule.register({ controller: MetricsController, defaultMetrics: { enabled: true } }), BrokerModule],
  providers: [
    makeCounterProvider({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: HTTP_LABELS,
    }),
    makeHistogramProvider({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status',
      labelNames: HTTP_LABELS,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    }),
    HttpMetricsHook,
    {
      provide: DB_POOL_GAUGE,
      inject: [getDataSourceToken()],
      useFactory: (dataSource: DataSource) =>
        freshGauge({
          name: DB_POOL_GAUGE,
          help: 'MySQL pool connections in use (always 0 on SQLite)',
          collect() {
            this.set(connectionsInUse(dataSource));
          },
        }),
    },
    {
      provide: BROKER_GAUGE,
      inject: [BrokerService],
      useFactory: (broker: BrokerService) =>
        freshGauge({
          name: BROKER_GAUGE,
          help: '1 while the RabbitMQ connection is up, else 0',
          collect() {
            this.set(broker.isConnected ? 1 : 0);
          },
        }),
    },
  ],
})
export class MetricsModule {
  // Instantiates the gauges, which nothing else injects.
  constructor(@Inject(DB_POOL_GAUGE) _pool: Gauge<string>, @Inject(BROKER_GAUGE) _broker: Gauge<string>) {}
}
