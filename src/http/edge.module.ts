import { Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import type { FastifyInstance } from 'fastify';
import type pino from 'pino';
import type { Histogram } from 'prom-client';
import { HealthModule } from '../health/health.module';
import { HealthService } from '../health/health.service';
import { ACCESS_LOGGER } from '../logging/root-logger';
import { REQUEST_DURATION } from '../metrics/http-metrics';
import { MetricsModule } from '../metrics/metrics.module';
import { AddressAllowance } from '../rate-limit/address-allowance';
import { CredentialRateLimit } from '../rate-limit/credential-rate-limit';
import { registerEdge } from './edge';
import { ClientAnswers } from './get-client-at-edge';

/** Registers the edge's hooks once the providers they call exist, before Fastify is ready. */
@Injectable()
class EdgeHooks implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly clients: ClientAnswers,
    private readonly rateLimit: CredentialRateLimit,
    private readonly addresses: AddressAllowance,
    @Inject(ACCESS_LOGGER) private readonly accessLogger: pino.Logger,
    private readonly health: HealthService,
    @InjectMetric(REQUEST_DURATION.name) private readonly requestDuration: Histogram<string>,
  ) {}

  onModuleInit(): void {
    registerEdge(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), {
      getClientAnswers: {
        cachedAnswer: (secretKey, digest) => this.clients.cachedAnswer(secretKey, digest),
        loadAnswer: (secretKey, digest) => this.clients.loadAnswer(secretKey, digest),
        withinRateLimit: (digest) => this.rateLimit.tryAcquire(digest),
        isAddressBlocked: (ip) => this.addresses.blockedFor(ip) > 0,
      },
      accessLogger: this.accessLogger,
      isDraining: () => this.health.isShuttingDown,
      requestDuration: this.requestDuration,
    });
  }
}

@Module({ imports: [HealthModule, MetricsModule], providers: [EdgeHooks] })
export class EdgeModule {}
