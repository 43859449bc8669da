import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { ChannelWrapper, Options } from 'amqp-connection-manager';
import type { Channel } from 'amqplib';
import { AuditEventDto } from '../audit/dto/audit-event.dto';
import { EVENT_CONTENT_TYPE, EVENTS_EXCHANGE } from './domain-events';

/** A batch the broker has not confirmed within this time is published again later (same message-id). */
export const PUBLISH_TIMEOUT_MS = 5000;

/**
 * Publishes domain events on a confirm channel of the shared connection, which declares the exchange each time it is
 * set up (at start-up and after every reconnect). The publisher is ready once that is done, not merely connected.
 */
@Injectable()
export class EventPublisher implements OnApplicationBootstrap, OnModuleDestroy {
  private channel?: ChannelWrapper;
  private ready = false;
  private readonly readyListeners: Array<() => void> = [];
  private readonly onDisconnect = () => (this.ready = false);

  constructor(private readonly amqp: AmqpConnection) {}

  get isReady(): boolean {
    return this.ready;
  }

  /** Called each time the channel is (again) ready to publish. */
  onReady(listener: () => void): void {
    this.readyListeners.push(listener);
  }

  onApplicationBootstrap(): void {
    this.amqp.managedConnection.on('disconnect', this.onDisconnect);
    this.channel = this.amqp.managedConnection.createChannel({
      name: 'domain-events',
      confirm: true,
      setup: (channel: Channel) => channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true, autoDelete: false }),
    });
    this.channel.on('connect', () => {
      this.ready = true;
      this.readyListeners.forEach((listener) => listener());
    });
    // A setup that failed (the exchange refused): not ready until the next connection sets it up again.
    this.channel.on('error', this.onDisconnect);
  }

  async onModuleDestroy(): Promise<void> {
    this.amqp.managedConnection?.removeListener('disconnect', this.onDisconnect);
    this.ready = false;
    await this.channel?.close();
  }

  /** Resolves once the broker confirmed every event (sent in the order given); rejects if any is not confirmed in time. */
  async publish(events: AuditEventDto[]): Promise<void> {
    const channel = this.channel;
    if (!channel || !this.ready) throw new Error('the broker is not connected');
    await Promise.all(
      events.map((event) => channel.publish(EVENTS_EXCHANGE, event.action, Buffer.from(JSON.stringify(event)), messageOptions(event))),
    );
  }
}

function messageOptions(event: AuditEventDto): Options.Publish {
  return { persistent: true, contentType: EVENT_CONTENT_TYPE, messageId: event.eventId, timeout: PUBLISH_TIMEOUT_MS };
}
