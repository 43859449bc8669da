import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '../config/app-config';
import { HealthService } from './health.service';

/**
 * After the drain delay, the time a signal-driven shutdown has to close the listener, finish the requests in flight
 * (each ends within the 4.5 s request deadline) and close the database and broker; past it the process exits anyway.
 * A pod's terminationGracePeriodSeconds must exceed SHUTDOWN_DELAY_MS plus this (deploy/deployment.yaml does).
 */
export const SHUTDOWN_CLOSE_MS = 8000;

/**
 * On SIGTERM, before Nest closes the listener: /health turns 503 and requests are still served for the drain delay,
 * so load balancers stop sending before connections are refused. Nest then closes the HTTP server (which waits for
 * the requests in flight) and only after that the database and the broker (onApplicationShutdown).
 */
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
