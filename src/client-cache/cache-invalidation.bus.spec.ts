import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import type { ConsumeMessage } from 'amqplib';
import {
  BATCH_WINDOW_MS,
  CACHE_INVALIDATION_EXCHANGE,
  CacheInvalidationBus,
  DEPLOYMENT_HEADER,
  MAX_BATCH_DIGESTS,
} from './cache-invalidation.bus';

describe('CacheInvalidationBus.publish', () => {
  let publish: jest.Mock<Promise<boolean>, [string, string, Buffer, unknown]>;
  let listener: { drop: jest.Mock; dropAnswer: jest.Mock; setLive: jest.Mock; clear: jest.Mock };
  let connected: boolean;
  let bus: CacheInvalidationBus;

  const sentDigests = () => publish.mock.calls.map(([, , content]) => content.toString('utf8').split('\n'));

  beforeEach(() => {
    jest.useFakeTimers();
    publish = jest.fn<Promise<boolean>, [string, string, Buffer, unknown]>(() => Promise.resolve(true));
    listener = { drop: jest.fn(), dropAnswer: jest.fn(), setLive: jest.fn(), clear: jest.fn() };
    connected = true;
    const amqp = { publish, managedConnection: { isConnected: () => connected, removeListener: jest.fn() } } as unknown as AmqpConnection;
    bus = new CacheInvalidationBus(amqp, listener);
  });
  afterEach(() => jest.useRealTimers());

  it('should send the digests of one window as one message on the fanout exchange', () => {
    bus.publish('a'.repeat(64), 'answer');
    bus.publish('b'.repeat(64), 'answer');
    expect(publish).not.toHaveBeenCalled();
    jest.advanceTimersByTime(BATCH_WINDOW_MS);
    expect(publish).toHaveBeenCalledTimes(1);
    expect(publish.mock.calls[0][0]).toBe(CACHE_INVALIDATION_EXCHANGE);
    expect(sentDigests()).toEqual([['a'.repeat(64), 'b'.repeat(64)]]);
    bus.publish('c'.repeat(64), 'answer');
    jest.advanceTimersByTime(BATCH_WINDOW_MS);
    expect(sentDigests()).toEqual([['a'.repeat(64), 'b'.repeat(64)], ['c'.repeat(64)]]);
  });

  it('should send a full batch at once, without waiting for the window', () => {
    for (let i = 0; i < MAX_BATCH_DIGESTS; i++) bus.publish(String(i).padStart(64, '0'), 'answer');
    expect(publish).toHaveBeenCalledTimes(1);
    expect(sentDigests()[0]).toHaveLength(MAX_BATCH_DIGESTS);
    jest.advanceTimersByTime(BATCH_WINDOW_MS);
    expect(publish).toHaveBeenCalledTimes(1);
  });

  it('should never send more than 1,000 lines in one message', () => {
    for (let i = 0; i < 2 * MAX_BATCH_DIGESTS + 1; i++) bus.publish(String(i).padStart(64, '0'), 'answer');
    jest.advanceTimersByTime(BATCH_WINDOW_MS);
    expect(sentDigests().map((lines) => lines.length)).toEqual([MAX_BATCH_DIGESTS, MAX_BATCH_DIGESTS, 1]);
  });

  it('should forget everything for a message of more than 1,000 lines, and apply one of 1,000 line by line', () => {
    const hosts = jest.fn();
    bus.onProviderHostsChanged(hosts);
    const lines = (count: number) => Array.from({ length: count }, (_, i) => `key:${String(i).padStart(64, '0')}`).join('\n');
    bus['receive']({ content: Buffer.from(lines(MAX_BATCH_DIGESTS + 1)), properties: { headers: {} } } as unknown as ConsumeMessage);
    expect(listener.drop).not.toHaveBeenCalled();
    expect(listener.clear).toHaveBeenCalledTimes(1);
    expect(hosts).toHaveBeenCalledTimes(1);

    bus['receive']({ content: Buffer.from(lines(MAX_BATCH_DIGESTS)), properties: { headers: {} } } as unknown as ConsumeMessage);
    expect(listener.drop).toHaveBeenCalledTimes(MAX_BATCH_DIGESTS);
    expect(listener.clear).toHaveBeenCalledTimes(1);
    expect(hosts).toHaveBeenCalledTimes(1);
  });

  it('should send what is pending when the module stops', () => {
    bus.publish('a'.repeat(64), 'answer');
    bus.onModuleDestroy();
    expect(sentDigests()).toEqual([['a'.repeat(64)]]);
    expect(listener.setLive).toHaveBeenLastCalledWith(false);
  });

  it('should keep nothing while the broker is down (the cache serves short-lived entries then)', () => {
    connected = false;
    bus.publish('a'.repeat(64), 'answer');
    jest.advanceTimersByTime(BATCH_WINDOW_MS);
    expect(publish).not.toHaveBeenCalled();
  });

  it('should mark a change of who may use a key, and have receivers drop the key entirely but only the answer otherwise', () => {
    bus.publish('a'.repeat(64), 'key');
    bus.publish('b'.repeat(64), 'answer');
    jest.advanceTimersByTime(BATCH_WINDOW_MS);
    const [message] = sentDigests();
    expect(message).toEqual([`key:${'a'.repeat(64)}`, 'b'.repeat(64)]);
    bus['receive']({ content: Buffer.from(message.join('\n')), properties: { headers: {} } } as unknown as ConsumeMessage);
    expect(listener.drop.mock.calls).toEqual([['a'.repeat(64)]]);
    expect(listener.dropAnswer.mock.calls).toEqual([['b'.repeat(64)]]);
  });
});

describe('CacheInvalidationBus and the deployment identity', () => {
  const IDENTITY = 'a1'.repeat(16);
  let publish: jest.Mock<Promise<boolean>, [string, string, Buffer, { headers?: Record<string, unknown> }]>;
  let listener: { drop: jest.Mock; dropAnswer: jest.Mock; setLive: jest.Mock; clear: jest.Mock };
  let bus: CacheInvalidationBus;

  const message = (line: string, headers?: Record<string, unknown>) =>
    ({ content: Buffer.from(line), properties: { headers } }) as unknown as ConsumeMessage;

  beforeEach(async () => {
    jest.useFakeTimers();
    publish = jest.fn<Promise<boolean>, [string, string, Buffer, { headers?: Record<string, unknown> }]>(() => Promise.resolve(true));
    listener = { drop: jest.fn(), dropAnswer: jest.fn(), setLive: jest.fn(), clear: jest.fn() };
    const amqp = {
      publish,
      managedConnection: { isConnected: () => true, on: jest.fn(), removeListener: jest.fn() },
      managedChannel: { addSetup: jest.fn(() => Promise.resolve()) },
    } as unknown as AmqpConnection;
    bus = new CacheInvalidationBus(amqp, listener, () => Promise.resolve(IDENTITY));
    await bus.onApplicationBootstrap();
  });
  afterEach(() => jest.useRealTimers());

  it('should send its identity in a header, leaving the body as the previous release reads it', () => {
    bus.publish('a'.repeat(64), 'key');
    jest.advanceTimersByTime(BATCH_WINDOW_MS);
    const [, , content, options] = publish.mock.calls[0];
    expect(content.toString('utf8')).toBe(`key:${'a'.repeat(64)}`);
    expect(options.headers).toEqual({ [DEPLOYMENT_HEADER]: IDENTITY });
  });

  it('should apply a message of its own deployment, and one without identity (the previous release)', () => {
    bus['receive'](message('a'.repeat(64), { [DEPLOYMENT_HEADER]: IDENTITY }));
    bus['receive'](message('b'.repeat(64)));
    bus['receive'](message('c'.repeat(64), {}));
    expect(listener.dropAnswer.mock.calls).toEqual([['a'.repeat(64)], ['b'.repeat(64)], ['c'.repeat(64)]]);
  });

  it('should ignore a message of another deployment on the same vhost', () => {
    const hosts = jest.fn();
    bus.onProviderHostsChanged(hosts);
    bus['receive'](message(`key:${'a'.repeat(64)}\n${'b'.repeat(64)}\nprovider-hosts`, { [DEPLOYMENT_HEADER]: 'b2'.repeat(16) }));
    expect(listener.drop).not.toHaveBeenCalled();
    expect(listener.dropAnswer).not.toHaveBeenCalled();
    expect(hosts).not.toHaveBeenCalled();
  });
});
