import { randomUUID } from 'node:crypto';
import { ChannelModel, ConsumeMessage, connect } from 'amqplib';
import { EVENTS_EXCHANGE } from '../../src/events/domain-events';
import { AMQP_URL } from './test-app';

/** A domain event as a consumer receives it: the message's properties, its routing key and its parsed body. */
export interface ReceivedEvent {
  routingKey: string;
  exchange: string;
  properties: { contentType?: string; deliveryMode?: number; messageId?: string };
  body: any;
  raw: string;
  receivedAt: number;
}

/**
 * A consumer of the domain events as the platform binds one: its own queue on client-registry.events with `#`. Every
 * suite shares the exchange, so tests pick their own events out (by request id or client id).
 */
export class EventConsumer {
  readonly received: ReceivedEvent[] = [];
  private readonly messageIds = new Set<string>();

  private constructor(
    private readonly connection: ChannelModel,
    readonly queue: string,
    private readonly repeatsDropped: boolean,
  ) {}

  /**
   * `repeatsDropped` keeps one delivery of each message-id, as a consumer that deduplicates does (docs/events.md: at
   * least once): for two instances on one SQLite file, whose relays take no lock (SQLite serves one instance), so that
   * both may publish an entry.
   */
  static async bind(bindingKey = '#', amqpUrl = AMQP_URL, { repeatsDropped = false } = {}): Promise<EventConsumer> {
    const connection = await connect(amqpUrl);
    const channel = await connection.createChannel();
    await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true, autoDelete: false });
    const { queue } = await channel.assertQueue(`e2e.events.${randomUUID()}`, { exclusive: true, autoDelete: true });
    await channel.bindQueue(queue, EVENTS_EXCHANGE, bindingKey);
    const consumer = new EventConsumer(connection, queue, repeatsDropped);
    await channel.consume(queue, (message) => message && consumer.receive(message), { noAck: true });
    return consumer;
  }

  /** Events whose body matches, in the order they arrived. */
  matching(predicate: (body: any) => boolean): ReceivedEvent[] {
    return this.received.filter((event) => predicate(event.body));
  }

  /** Waits until `count` events match, and answers them; fails with what arrived after `timeoutMs`. */
  async waitFor(predicate: (body: any) => boolean, count: number, timeoutMs = 15000): Promise<ReceivedEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.matching(predicate).length < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `expected ${count} events, got ${this.matching(predicate).length}: ${JSON.stringify(this.matching(predicate).map((e) => e.body))}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.matching(predicate);
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  private receive(message: ConsumeMessage): void {
    const messageId = message.properties.messageId as string | undefined;
    if (this.repeatsDropped && messageId !== undefined) {
      if (this.messageIds.has(messageId)) return;
      this.messageIds.add(messageId);
    }
    const raw = message.content.toString('utf8');
    this.received.push({
      routingKey: message.fields.routingKey,
      exchange: message.fields.exchange,
      properties: {
        contentType: message.properties.contentType as string | undefined,
        deliveryMode: message.properties.deliveryMode as number | undefined,
        messageId: message.properties.messageId as string | undefined,
      },
      body: JSON.parse(raw),
      raw,
      receivedAt: Date.now(),
    });
  }
}
