import { AddressInfo, Server, Socket, connect, createServer } from 'node:net';
import { AMQP_URL } from '../helpers/test-app';
import { ServiceProcess, report, sleep, sqliteDatabaseUrl, waitUntil } from '../helpers/service-process';

const AWAY_MS = 30_000;

interface LogLine {
  level: number;
  msg: string;
  context?: string;
}

/**
 * Where the service looks for the broker: a port that counts every connection attempt and drops it while the broker
 * is "away", and passes connections through to the real one once it is back.
 */
class CountingDoor {
  attempts = 0;
  open = false;
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server) {}

  static async start(): Promise<CountingDoor> {
    const door = new CountingDoor(createServer((socket) => door.accept(socket)));
    await new Promise<void>((resolve) => door.server.listen(0, '127.0.0.1', resolve));
    return door;
  }

  private accept(socket: Socket): void {
    this.attempts++;
    if (!this.open) return void socket.destroy();
    const broker = new URL(AMQP_URL);
    const upstream = connect(Number(broker.port || 5672), broker.hostname);
    for (const end of [socket, upstream]) {
      this.sockets.add(end);
      end.on('error', () => undefined).on('close', () => (socket.destroy(), upstream.destroy()));
    }
    socket.pipe(upstream).pipe(socket);
  }

  get url(): string {
    const broker = new URL(AMQP_URL);
    broker.hostname = '127.0.0.1';
    broker.port = String((this.server.address() as AddressInfo).port);
    return broker.toString();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('Reconnecting to a broker that is away', () => {
  let door: CountingDoor;
  let service: ServiceProcess;

  beforeAll(async () => {
    door = await CountingDoor.start();
    service = await ServiceProcess.start({ DATABASE_URL: sqliteDatabaseUrl(), AMQP_URL: door.url });
  });
  afterAll(async () => {
    await service?.stop();
    await door?.close();
  });

  /** The lines about the broker once the service runs (the start-up lines name its module and routes). */
  const brokerLines = (): LogLine[] => {
    const lines = service
      .logs()
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);
    const started = lines.findIndex((line) => line.msg.startsWith('Listening on'));
    return lines.slice(started + 1).filter((line) => line.level >= 30 && /broker|rabbitmq|amqp/i.test(`${line.context} ${line.msg}`));
  };

  it(
    'should back off (a handful of attempts in 30 s, not one a second), say so once, and say connected only once it is',
    async () => {
      await sleep(AWAY_MS);
      const attemptsWhileAway = door.attempts;
      const linesWhileAway = brokerLines();
      expect(attemptsWhileAway).toBeGreaterThanOrEqual(4);
      expect(attemptsWhileAway).toBeLessThanOrEqual(8);
      expect(linesWhileAway).toEqual([
        expect.objectContaining({ level: 40, context: 'Broker', msg: expect.stringMatching(/^Broker unreachable/) }),
      ]);
      expect((await service.request('GET', '/health')).body.results.broker).toBe('down');

      door.open = true;
      const reconnectedAfter = await waitUntil(
        'the broker is reported up',
        async () => (await service.request('GET', '/health')).body.results.broker === 'up',
        30_000,
      );
      await sleep(200);
      expect(brokerLines().slice(linesWhileAway.length)).toEqual([
        expect.objectContaining({ level: 30, context: 'Broker', msg: 'Connected to the broker' }),
      ]);
      report('broker away 30 s', { attempts: String(attemptsWhileAway), 'reconnected after it returned': reconnectedAfter });
    },
    AWAY_MS + 45_000,
  );
});
