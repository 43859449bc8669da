import { Inject, Module } from '@nestjs/common';
import { PrometheusModule, getToken, makeCounterProvider, makeHistogramProvider } from '@willsoto/nestjs-prometheus';
import { Gauge, GaugeConfiguration, register } from 'prom-client';
import { BrokerModule } from '../broker/broker.module';
import { BrokerService } from '../broker/broker.service';
import { DatabaseModule } from '../database/database.module';
import { SqlExecutor } from '../database/sql-executor';
import { REQUESTS, REQUEST_DURATION, copyRequestCounts } from './http-metrics';
import { MetricsController } from './metrics.controller';

const DB_QUERIES_GAUGE = 'db_queries_in_flight';
const BROKER_GAUGE = 'broker_connected';

/** Gauges read at scrape time from this application's pool and broker; a new application replaces the old gauge. */
function freshGauge(configuration: GaugeConfiguration<string>): Gauge<string> {
  register.removeSingleMetric(configuration.name);
  return new Gauge(configuration);
}

@Module({
  imports: [PrometheusModule.register({ controller: MetricsController, defaultMetrics: { enabled: true } }), BrokerModule, DatabaseModule],
  providers: [
    makeCounterProvider({ ...REQUESTS, inject: [getToken(REQUEST_DURATION.name)], collect: copyRequestCounts }),
    // Observed by the edge's onResponse hook (src/http/request-timing.ts).
    makeHistogramProvider(REQUEST_DURATION),
    {
      provide: DB_QUERIES_GAUGE,
      inject: [SqlExecutor],
      useFactory: (database: SqlExecutor) =>
        freshGauge({
          name: DB_QUERIES_GAUGE,
          help: 'Database statements sent and not answered yet; above DATABASE_POOL_SIZE they wait for a connection',
          collect() {
            this.set(database.queriesInFlight);
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
  constructor(@Inject(DB_QUERIES_GAUGE) _queries: Gauge<string>, @Inject(BROKER_GAUGE) _broker: Gauge<string>) {}
}
