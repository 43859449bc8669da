import { Injectable } from '@nestjs/common';
import { BrokerConnection } from '../broker-connection/broker-connection';
import { DatabaseHealth, DependencyState } from './database-health';

export type { DependencyState } from './database-health';

export const DRAINING_MESSAGE = 'shutting down';
export const DATABASE_DOWN_MESSAGE = 'database is down';

// `draining` is a stop under way, not a failure.
export type Readiness =
  { status: 200; results: { database: 'up'; broker: DependencyState } } | { status: 503; error: string; draining: boolean };

@Injectable()
export class HealthService {
  private shuttingDown = false;

  constructor(
    private readonly database: DatabaseHealth,
    private readonly broker: BrokerConnection,
  ) {}

  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  get brokerState(): DependencyState {
    return this.broker.isConnected ? 'up' : 'down';
  }

  readiness(): Readiness {
    if (this.shuttingDown) return { status: 503, error: DRAINING_MESSAGE, draining: true };
    if (this.database.current === 'down') return { status: 503, error: DATABASE_DOWN_MESSAGE, draining: false };
    return { status: 200, results: { database: 'up', broker: this.brokerState } };
  }
}
