import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '../config/app-config';
import { HealthService } from './health.service';

// terminationGracePeriodSeconds must exceed SHUTDOWN_DELAY_MS plus this (docs/operations.md, Scaling out).
export const SHUTDOWN_CLOSE_MS = 8000;

// Before Nest closes the listener, so load balancers stop sending before connections are refused.
@Injectable()
export class GracefulShutdownService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  constructor(
    private readonly health: HealthService,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.health.markShuttingDown();
    // app.close() from code (tests, scripts) has no load balancer to drain.
    if (!signal) return;
    const delay = this.config.get('shutdownDelayMs', { infer: true });
    setTimeout(() => {
      this.logger.error(`Shutdown did not finish within ${SHUTDOWN_CLOSE_MS} ms of the drain delay: exiting anyway`);
      process.exit(1);
    }, delay + SHUTDOWN_CLOSE_MS).unref();
    this.logger.log(`${signal} received: draining for ${delay} ms, then closing`);
    await sleep(delay);
  }
}
