import { Injectable } from '@nestjs/common';
import { BrokerService } from '../broker/broker.service';
import { withTimeout } from '../common/timeout';
import { SqlExecutor } from '../database/sql-executor';

const DATABASE_PING_TIMEOUT_MS = 2000;

export type DependencyState = 'up' | 'down';

@Injectable()
export class HealthService {
  private shuttingDown = false;

  constructor(
    private readonly database: SqlExecutor,
    private readonly broker: BrokerService,
  ) {}

  /** From SIGTERM on, /health fails so load balancers stop sending while in-flight requests finish. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  get brokerState(): DependencyState {
    return this.broker.isConnected ? 'up' : 'down';
  }

  async databaseState(): Promise<DependencyState> {
    return withTimeout(this.database.ping(), DATABASE_PING_TIMEOUT_MS, 'database').then(
      (): DependencyState => 'up',
      (): DependencyState => 'down',
    );
  }
}
