import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfirmChannel } from 'amqplib';
import { AuditEventDto } from '../audit/dto/audit-event.dto';
import { withTimeout } from '../common/timeout';
import { EVENT_CONTENT_TYPE, EVENTS_EXCHANGE } from './domain-events';

/** A batch the broker has not confirmed within this time is published again later (same message-id). */
export const PUBLISH_TIMEOUT_MS = 5000;

/**
 * Publishes domain events on a confirm channel of its own on the shared connection, opened on every (re)connection
 * with the exchange declared: the publisher is ready once that is done, not merely connected. A batch is written to the
 * channel at once and its confirms awaited together (amqplib's waitForConfirms), without a promise and a timer per
 * message as amqp-connection-manager's channel wrapper would keep: the relay's cost per event is a write's cost.
 */
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

  /** Called each time the channel is (again) ready to publish. */
  onReady(listener: () => void): void {
    this.readyListeners.push(listener);
  }

  onApplicationBootstrap(): void {
    const manager = this.amqp.managedConnection;
    manager.on('connect', this.onConnect);
    manager.on('disconnect', this.onDisconnect);
    if (manager.isConnected()) void this.openChannel();
  }

  /** With the listener closed: the relay may publish through the drain. */
  async onApplicationShutdown(): Promise<void> {
    this.amqp.managedConnection?.removeListener('connect', this.onConnect);
    this.amqp.managedConnection?.removeListener('disconnect', this.onDisconnect);
    const channel = this.channel;
    this.channel = undefined;
    await channel?.close().catch(() => undefined);
  }

  /** Resolves once the broker confirmed every event (sent in the order given); rejects if any is refused or late. */
  async publish(events: AuditEventDto[]): Promise<void> {
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
