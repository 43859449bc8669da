import { Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import type { FastifyInstance } from 'fastify';
import type pino from 'pino';
import type { Histogram } from 'prom-client';
import { HealthService } from '../health/health.service';
import { ACCESS_LOGGER } from '../logging/root-logger';
import { REQUEST_DURATION } from '../metrics/http-metrics';
import { registerEdge } from './edge';
import { EdgeAnswer } from './edge-answer';

@Injectable()
class EdgeHooks implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly edgeAnswer: EdgeAnswer,
    @Inject(ACCESS_LOGGER) private readonly accessLogger: pino.Logger,
    private readonly health: HealthService,
    @InjectMetric(REQUEST_DURATION.name) private readonly requestDuration: Histogram<string>,
  ) {}

  onModuleInit(): void {
    registerEdge(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), {
      edgeAnswer: this.edgeAnswer.preHandler,
      quietRoutes: [this.edgeAnswer.route],
      accessLogger: this.accessLogger,
      isDraining: () => this.health.isShuttingDown,
      requestDuration: this.requestDuration,
    });
  }
}

@Module({ providers: [EdgeHooks] })
export class EdgeModule {}
