import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { FIRST_RETRY_SECONDS, retryDelaySeconds } from './reconnect-backoff';

type BrokerState = 'connecting' | 'up' | 'down';

@Injectable()
export class BrokerConnectionWatch implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Broker');
  private state: BrokerState = 'connecting';
  private failures = 0;
  private stopping = false;

  constructor(private readonly amqp: AmqpConnection) {}

  onModuleInit(): void {
    const manager = this.amqp.managedConnection;
    manager.on('connect', () => this.connected());
    manager.on('connectFailed', ({ err }: { err?: Error }) => this.failed(err));
    manager.on('disconnect', ({ err }: { err?: Error }) => this.lost(err));
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
  }

  private connected(): void {
    this.failures = 0;
    this.setNextDelay(FIRST_RETRY_SECONDS);
    this.enter('up', 'log', 'Connected to the broker');
  }

  // Runs before the manager waits for its next attempt, so the delay set here is the one it waits.
  private failed(error: Error | undefined): void {
    this.failures++;
    const delay = this.setNextDelay(retryDelaySeconds(this.failures));
    this.logger.debug(`Broker attempt ${this.failures} failed (${reasonOf(error)}): next in ${delay.toFixed(1)} s`);
    this.enter(
      'down',
      'warn',
      `Broker unreachable (${reasonOf(error)}): retrying with back-off; exchange creation answers 503 and domain events wait in the outbox until it returns`,
    );
  }

  private lost(error: Error | undefined): void {
    if (this.stopping) return;
    this.failures = 0;
    this.setNextDelay(retryDelaySeconds(1));
    this.enter('down', 'warn', `Broker connection lost (${reasonOf(error)}): reconnecting with back-off; domain events wait in the outbox`);
  }

  private enter(state: BrokerState, level: 'log' | 'warn', message: string): void {
    if (this.state === state) return;
    this.state = state;
    this.logger[level](message);
  }

  private setNextDelay(seconds: number): number {
    this.amqp.managedConnection.reconnectTimeInSeconds = seconds;
    return seconds;
  }
}

function reasonOf(error: Error | undefined): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : (error?.message ?? 'no reason given');
}
