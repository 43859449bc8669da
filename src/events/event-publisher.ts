import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfirmChannel } from 'amqplib';
import { DomainEventDto } from '../audit/dto/audit-event.dto';
import { withTimeout } from '../common/errors/unavailable';
import { EVENT_CONTENT_TYPE, EVENTS_EXCHANGE } from './domain-events';

export const PUBLISH_TIMEOUT_MS = 5000;
const CHANNEL_CLOSE_WAIT_MS = 2000;

// A batch's confirms are awaited together, not a promise and a timer per message (BENCHMARKS.md, domain events).
@Injectable()
export class EventPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventPublisher');
  private channel?: ConfirmChannel;
  private readonly readyListeners: Array<() => void> = [];
  private readonly onConnect = () => void this.openChannel();
  private readonly onDisconnect = () => (this.channel = undefined);

  constructor(private readonly amqp: AmqpConnection) {}

  get isReady(): boolean {
    return this.channel !== undefined;
  }

  onReady(listener: () => void): void {
    this.readyListeners.push(listener);
  }

  onApplicationBootstrap(): void {
    const manager = this.amqp.managedConnection;
    manager.on('connect', this.onConnect);
    manager.on('disconnect', this.onDisconnect);
    if (manager.isConnected()) void this.openChannel();
  }

  // On shutdown, not before: the relay publishes through the drain.
  async onApplicationShutdown(): Promise<void> {
    this.amqp.managedConnection?.removeListener('connect', this.onConnect);
    this.amqp.managedConnection?.removeListener('disconnect', this.onDisconnect);
    const channel = this.channel;
    this.channel = undefined;
    // amqplib waits for the broker's CloseOk without end; on a starved CPU it never came, and app.close() hung with it.
    if (channel) await withTimeout(channel.close(), CHANNEL_CLOSE_WAIT_MS, 'broker').catch(() => undefined);
  }

  async publish(events: DomainEventDto[]): Promise<void> {
    const channel = this.channel;
    if (!channel) throw new Error('the broker is not connected');
    for (const event of events) {
      channel.publish(EVENTS_EXCHANGE, event.action, Buffer.from(JSON.stringify(event)), {
        persistent: true,
        contentType: EVENT_CONTENT_TYPE,
        messageId: event.eventId,
      });
    }
    await withTimeout(channel.waitForConfirms(), PUBLISH_TIMEOUT_MS, 'broker');
  }

  private async openChannel(): Promise<void> {
    const connection = this.amqp.managedConnection.connection;
    if (!connection) return;
    try {
      const channel = await connection.createConfirmChannel();
      // An error closes the channel: 'close' forgets it, and the next connection opens another.
      channel.on('error', () => undefined);
      channel.on('close', () => this.channel === channel && (this.channel = undefined));
      await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true, autoDelete: false });
      this.channel = channel;
      this.readyListeners.forEach((listener) => listener());
    } catch (error) {
      this.logger.warn(`Domain events cannot be published on this connection: ${(error as Error).message}`);
    }
  }
}
