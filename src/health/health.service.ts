import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BrokerService } from '../broker/broker.service';

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
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<DependencyState>((resolve) => {
      timer = setTimeout(() => resolve('down'), DATABASE_PING_TIMEOUT_MS);
    });
    const ping = this.dataSource
      .query('SELECT 1')
      .then((): DependencyState => 'up')
      .catch((): DependencyState => 'down');
    return Promise.race([ping, timeout]).finally(() => clearTimeout(timer));
  }
}
