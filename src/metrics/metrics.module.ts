import { Inject, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { PrometheusModule, getToken, makeCounterProvider, makeHistogramProvider } from '@willsoto/nestjs-prometheus';
import { Gauge, GaugeConfiguration, register } from 'prom-client';
import { DataSource } from 'typeorm';
import { BrokerModule } from '../broker/broker.module';
import { BrokerService } from '../broker/broker.service';
import { REQUESTS, REQUEST_DURATION, copyRequestCounts } from './http-metrics';
import { MetricsController } from './metrics.controller';

const DB_POOL_GAUGE = 'db_pool_connections_in_use';
const BROKER_GAUGE = 'broker_connected';

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
    makeCounterProvider({ ...REQUESTS, inject: [getToken(REQUEST_DURATION.name)], collect: copyRequestCounts }),
    // Observed by the edge's onResponse hook (src/http/request-timing.ts).
    makeHistogramProvider(REQUEST_DURATION),
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
  exports: [getToken(REQUEST_DURATION.name)],
})
export class MetricsModule {
  // Instantiates the gauges, which nothing else injects.
  constructor(@Inject(DB_POOL_GAUGE) _pool: Gauge<string>, @Inject(BROKER_GAUGE) _broker: Gauge<string>) {}
}
