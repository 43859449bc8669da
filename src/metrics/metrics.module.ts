import { Global, Inject, Module } from '@nestjs/common';
import { getToken, makeCounterProvider, makeHistogramProvider } from '@willsoto/nestjs-prometheus';
import { Gauge, GaugeConfiguration, collectDefaultMetrics, register } from 'prom-client';
import { BrokerConnection } from '../broker-connection/broker-connection';
import { BrokerConnectionModule } from '../broker-connection/broker-connection.module';
import { ClientCache } from '../client-cache/client-cache';
import { ClientCacheModule } from '../client-cache/client-cache.module';
import { DatabaseModule } from '../database/database.module';
import { StatementTally } from '../database/statement-tally';
import { EventsModule } from '../events/events.module';
import { OutboxBacklog, OutboxRepository } from '../events/outbox.repository';
import { scrapedFigure } from '../common/scraped-figure';
import { AddressAllowance } from '../rate-limit/address-allowance';
import { CredentialRateLimit } from '../rate-limit/credential-rate-limit';
import { REQUESTS, REQUEST_DURATION, copyRequestCounts } from './http-metrics';
import { MetricsController } from './metrics.controller';
import { MetricsRenderer } from './metrics-renderer';

const DB_QUERIES_GAUGE = 'db_queries_in_flight';
const BROKER_GAUGE = 'broker_connected';
const DEFAULT_METRICS = 'default_metrics';
const RATE_LIMIT_GAUGE = 'rate_limit_tracked';
const CLIENT_CACHE_GAUGES = 'client_cache_gauges';
const OUTBOX_UNPUBLISHED_GAUGE = 'outbox_unpublished_events';
const OUTBOX_AGE_GAUGE = 'outbox_oldest_unpublished_age_seconds';

// Another app in the same process (tests) replaces the previous one's gauge.
function freshGauge(configuration: GaugeConfiguration<string>): Gauge<string> {
  register.removeSingleMetric(configuration.name);
  return new Gauge(configuration);
}

function collectDefaultMetricsOnce(): void {
  if (register.getSingleMetric('process_cpu_user_seconds_total') === undefined) collectDefaultMetrics();
}

// One read per scrape for both; with the database down, the age grows from the last read.
function outboxGauges(outbox: OutboxRepository): Gauge<string>[] {
  const read = scrapedFigure<OutboxBacklog>(() => outbox.backlog(), { unpublished: 0, oldestOccurredAt: null });
  return [
    freshGauge({
      name: OUTBOX_UNPUBLISHED_GAUGE,
      help: 'Domain events written and not yet confirmed by the broker (the outbox backlog, shared by all instances)',
      async collect() {
        this.set((await read()).unpublished);
      },
    }),
    freshGauge({
      name: OUTBOX_AGE_GAUGE,
      help: 'Age of the oldest domain event not yet published, in seconds; 0 when none waits',
      async collect() {
        const { oldestOccurredAt } = await read();
        this.set(oldestOccurredAt === null ? 0 : Math.max(0, (Date.now() - oldestOccurredAt) / 1000));
      },
    }),
  ];
}

function clientCacheGauges(cache: ClientCache): Gauge<string>[] {
  return [
    freshGauge({
      name: 'client_cache_bytes',
      help: 'Memory the get-client cache holds, in bytes, as it weighs its entries against CLIENT_CACHE_MB',
      collect() {
        this.set(cache.bytes);
      },
    }),
    freshGauge({
      name: 'client_cache_budget_bytes',
      help: 'The get-client cache budget, CLIENT_CACHE_MB in bytes',
      collect() {
        this.set(cache.maxBytes);
      },
    }),
    freshGauge({
      name: 'client_cache_entries',
      help: 'Keys the get-client cache holds: answers, owners of keys whose answer was dropped, and unknown keys',
      collect() {
        this.set(cache.size);
      },
    }),
  ];
}

// Global: the edge and the probes take the request histogram and the renderer without importing the metrics' own dependencies.
@Global()
@Module({
  imports: [BrokerConnectionModule, ClientCacheModule, DatabaseModule, EventsModule],
  controllers: [MetricsController],
  providers: [
    MetricsRenderer,
    { provide: DEFAULT_METRICS, useFactory: collectDefaultMetricsOnce },
    makeCounterProvider({ ...REQUESTS, inject: [getToken(REQUEST_DURATION.name)], collect: copyRequestCounts }),
    makeHistogramProvider(REQUEST_DURATION),
    {
      provide: DB_QUERIES_GAUGE,
      inject: [StatementTally],
      useFactory: (statements: StatementTally) =>
        freshGauge({
          name: DB_QUERIES_GAUGE,
          help: 'Database statements sent and not answered yet; above DATABASE_POOL_SIZE they wait for a connection',
          collect() {
            this.set(statements.inFlight);
          },
        }),
    },
    {
      provide: BROKER_GAUGE,
      inject: [BrokerConnection],
      useFactory: (broker: BrokerConnection) =>
        freshGauge({
          name: BROKER_GAUGE,
          help: '1 while the RabbitMQ connection is up, else 0',
          collect() {
            this.set(broker.isConnected ? 1 : 0);
          },
        }),
    },
    {
      provide: RATE_LIMIT_GAUGE,
      inject: [AddressAllowance, CredentialRateLimit],
      useFactory: (addresses: AddressAllowance, credentials: CredentialRateLimit) =>
        freshGauge({
          name: RATE_LIMIT_GAUGE,
          help: 'Counters the rate limits hold: valid credentials, and addresses with refused requests (each map is bounded)',
          labelNames: ['kind'],
          collect() {
            this.set({ kind: 'credential' }, credentials.trackedCredentials);
            this.set({ kind: 'address' }, addresses.size);
          },
        }),
    },
    { provide: OUTBOX_UNPUBLISHED_GAUGE, inject: [OutboxRepository], useFactory: outboxGauges },
    { provide: CLIENT_CACHE_GAUGES, inject: [ClientCache], useFactory: clientCacheGauges },
  ],
  exports: [getToken(REQUEST_DURATION.name), MetricsRenderer],
})
export class MetricsModule {
  // Instantiates the default metrics and the gauges, which nothing else injects.
  constructor(
    @Inject(DEFAULT_METRICS) _defaults: void,
    @Inject(DB_QUERIES_GAUGE) _queries: Gauge<string>,
    @Inject(BROKER_GAUGE) _broker: Gauge<string>,
    @Inject(RATE_LIMIT_GAUGE) _rateLimit: Gauge<string>,
    @Inject(OUTBOX_UNPUBLISHED_GAUGE) _outbox: Gauge<string>[],
    @Inject(CLIENT_CACHE_GAUGES) _clientCache: Gauge<string>[],
  ) {}
}
