import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '../config/app-config';
import { HealthService } from './health.service';

/** A signal-driven shutdown that has not finished by then ends the process anyway: orchestrators kill at ~10 s. */
export const SHUTDOWN_DEADLINE_MS = 9000;

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
    setTimeout(() => {
      this.logger.error(`Shutdown did not finish within ${SHUTDOWN_DEADLINE_MS} ms: exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    const delay = this.config.get('shutdownDelayMs', { infer: true });
    this.logger.log(`${signal} received: draining for ${delay} ms, then closing`);
    await sleep(delay);
  }
}
