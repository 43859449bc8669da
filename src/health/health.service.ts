import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BrokerService } from '../broker/broker.service';
import { withTimeout } from '../common/timeout';

const DATABASE_PING_TIMEOUT_MS = 2000;

export type DependencyState = 'up' | 'down';

@Injectable()
export class HealthService {
  private shuttingDown = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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
    return withTimeout(this.dataSource.query('SELECT 1'), DATABASE_PING_TIMEOUT_MS, 'database').then(
      (): DependencyState => 'up',
      (): DependencyState => 'down',
    );
  }
}
