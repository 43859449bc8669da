import { EventEmitter } from 'node:events';
import type { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { EventPublisher } from './event-publisher';

function publisherWithChannel(channel: { close: () => Promise<void> }): EventPublisher {
  const managedConnection = Object.assign(new EventEmitter(), {
    isConnected: () => true,
    connection: {
      createConfirmChannel: () => Promise.resolve(Object.assign(new EventEmitter(), channel, { assertExchange: () => Promise.resolve() })),
    },
  });
  return new EventPublisher({ managedConnection } as unknown as AmqpConnection);
}

describe('EventPublisher', () => {
  afterEach(() => jest.useRealTimers());

  it('should end its shutdown within 2 s when the broker never confirms the channel closed', async () => {
    const publisher = publisherWithChannel({ close: () => new Promise<void>(() => undefined) });
    const ready = new Promise<void>((resolve) => publisher.onReady(resolve));
    publisher.onApplicationBootstrap();
    await ready;
    jest.useFakeTimers();
    let ended = false;
    const shutdown = publisher.onApplicationShutdown().then(() => (ended = true));
    await jest.advanceTimersByTimeAsync(1999);
    expect(ended).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await shutdown;
    expect(ended).toBe(true);
    expect(publisher.isReady).toBe(false);
  });

  it('should close its channel at shutdown', async () => {
    const close = jest.fn(() => Promise.resolve());
    const publisher = publisherWithChannel({ close });
    const ready = new Promise<void>((resolve) => publisher.onReady(resolve));
    publisher.onApplicationBootstrap();
    await ready;
    await publisher.onApplicationShutdown();
    expect(close).toHaveBeenCalledTimes(1);
  });
});
