import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Channel, ConsumeMessage, Options } from 'amqplib';

export const CACHE_INVALIDATION_EXCHANGE = 'client-registry.cache-invalidation';
// Dropped past this: the cache's age limits take over.
const PUBLISH_TIMEOUT_MS = 2000;
// One message per write cost a quarter of add-sms-config's throughput; 5 ms is far under the promised second.
export const BATCH_WINDOW_MS = 5;
// The most lines a message carries; a message received with more empties the cache instead.
export const MAX_BATCH_DIGESTS = 1000;

export type InvalidationScope = 'answer' | 'key';
// A bare digest drops the answer only: the format before scopes, still sent by instances of the older build.
const KEY_SCOPE_PREFIX = 'key:';
export const PROVIDER_HOSTS_LINE = 'provider-hosts';
// A header, which the previous release ignores; a message without it (the previous release's) is applied.
export const DEPLOYMENT_HEADER = 'x-deployment';

export function lineOf(digest: string, scope: InvalidationScope): string {
  return scope === 'key' ? KEY_SCOPE_PREFIX + digest : digest;
}

export interface InvalidationListener {
  dropAnswer(digest: string): void;
  drop(digest: string): void;
  setLive(live: boolean): void;
  clear(): void;
}

// The subscription is a setup of the managed channel, so it is made again on every reconnect.
export class CacheInvalidationBus implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('CacheInvalidation');
  private batch: string[] = [];
  private batchTimer?: NodeJS.Timeout;
  private readonly onDisconnect = () => this.setLive(false);
  private readonly providerHostListeners: Array<() => void> = [];
  private hearing = false;
  private readonly setup = (channel: Channel) => this.subscribe(channel);
  private identity: string | null = null;

  constructor(
    private readonly amqp: AmqpConnection,
    private readonly listener: InvalidationListener,
    private readonly deploymentIdentity: () => Promise<string | null> = () => Promise.resolve(null),
  ) {}

  // Read before subscribing, so that no message of another deployment is ever applied.
  async onApplicationBootstrap(): Promise<void> {
    this.identity = await this.deploymentIdentity();
    if (this.identity === null)
      this.logger.warn('No deployment identity stored: invalidation messages of every deployment on the vhost are applied');
    // Not awaited: with the broker down the setup runs whenever it comes back, and the service starts regardless.
    this.amqp.managedConnection.on('disconnect', this.onDisconnect);
    this.amqp.managedChannel.addSetup(this.setup).catch((error: Error) => {
      this.logger.warn(`Cache invalidation subscription failed: ${error.message}`);
    });
  }

  onModuleDestroy(): void {
    this.sendBatch();
    this.amqp.managedConnection?.removeListener('disconnect', this.onDisconnect);
    this.setLive(false);
  }

  onProviderHostsChanged(listener: () => void): void {
    this.providerHostListeners.push(listener);
  }

  publishProviderHostsChanged(): void {
    this.enqueue(PROVIDER_HOSTS_LINE);
  }

  get live(): boolean {
    return this.hearing;
  }

  private setLive(live: boolean): void {
    const resumed = live && !this.hearing;
    this.hearing = live;
    this.listener.setLive(live);
    if (resumed) this.providerHostListeners.forEach((listener) => listener());
  }

  publish(digest: string, scope: InvalidationScope): void {
    this.enqueue(lineOf(digest, scope));
  }

  // Lines of the bus or of the change sequence, applied alike.
  apply(lines: string[]): void {
    for (const line of lines) {
      if (line === PROVIDER_HOSTS_LINE) this.providerHostListeners.forEach((listener) => listener());
      else if (line.startsWith(KEY_SCOPE_PREFIX)) this.listener.drop(line.slice(KEY_SCOPE_PREFIX.length));
      else this.listener.dropAnswer(line);
    }
  }

  // Changes may have been missed: nothing cached is kept, and the provider hosts are read again.
  forgetEverything(): void {
    this.listener.clear();
    this.providerHostListeners.forEach((listener) => listener());
  }

  private enqueue(line: string): void {
    if (!this.amqp.managedConnection?.isConnected()) return;
    this.batch.push(line);
    if (this.batch.length >= MAX_BATCH_DIGESTS) this.sendBatch();
    else this.batchTimer ??= setTimeout(() => this.sendBatch(), BATCH_WINDOW_MS);
  }

  private sendBatch(): void {
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    if (this.batch.length === 0) return;
    const digests = this.batch.join('\n');
    this.batch = [];
    const headers = this.identity === null ? undefined : { [DEPLOYMENT_HEADER]: this.identity };
    this.amqp
      // timeout is amqp-connection-manager's (the channel wrapper under golevelup), not amqplib's.
      .publish(CACHE_INVALIDATION_EXCHANGE, '', Buffer.from(digests), {
        persistent: false,
        headers,
        timeout: PUBLISH_TIMEOUT_MS,
      } as Options.Publish)
      .catch((error: Error) => this.logger.warn(`Cache invalidation not published: ${error.message}`));
  }

  private async subscribe(channel: Channel): Promise<void> {
    // The channel can close without the connection (a channel error): its consumer is gone with it.
    channel.once('close', this.onDisconnect);
    try {
      await channel.assertExchange(CACHE_INVALIDATION_EXCHANGE, 'fanout', { durable: true, autoDelete: false });
      const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
      await channel.bindQueue(queue, CACHE_INVALIDATION_EXCHANGE, '');
      await channel.consume(queue, (message) => this.receive(message), { noAck: true, exclusive: true });
    } catch (error) {
      this.logger.warn(`Cache invalidation subscription failed: ${(error as Error).message}`);
      throw error;
    }
    this.setLive(true);
  }

  private receive(message: ConsumeMessage | null): void {
    // null: the broker cancelled the consumer (queue deleted); until the next setup, invalidations may be missed.
    if (message === null) return this.setLive(false);
    // amqplib reads a string header as a string (a Buffer only if sent as bytes).
    const sender = message.properties?.headers?.[DEPLOYMENT_HEADER] as string | Buffer | undefined;
    if (sender !== undefined && this.identity !== null && sender.toString() !== this.identity) return;
    if (linesExceed(message.content, MAX_BATCH_DIGESTS)) {
      // No instance sends one: applied line by line, one of millions would hold the event loop.
      this.logger.warn(`Cache invalidation message of more than ${MAX_BATCH_DIGESTS} lines: everything cached is forgotten`);
      return this.forgetEverything();
    }
    this.apply(message.content.toString('utf8').split('\n'));
  }
}

// Counts no further than the limit, whatever the message's size.
function linesExceed(content: Buffer, limit: number): boolean {
  let lines = 1;
  for (let newline = content.indexOf(10); newline !== -1; newline = content.indexOf(10, newline + 1)) if (++lines > limit) return true;
  return false;
}
