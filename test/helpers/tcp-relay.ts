import { AddressInfo, Server, Socket, createServer } from 'node:net';

/**
 * A TCP relay between the service and a real dependency (MariaDB, RabbitMQ), so tests can make real outages:
 * cut (refuse new connections, drop existing ones), reset (RST every open connection), freeze (accept, forward
 * nothing) and restore. Listens on an ephemeral port of its own.
 */
export class TcpRelay {
  private server: Server | undefined;
  private readonly pairs = new Set<[Socket, Socket]>();
  private frozen = false;
  private resetting = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpRelay> {
    const relay = new TcpRelay(targetHost, targetPort);
    await relay.listen(0);
    return relay;
  }

  /** The URL of the dependency, pointed at the relay. */
  rewrite(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString().replace(/\/$/, '');
  }

  get openConnections(): number {
    return this.pairs.size;
  }

  /** Connections are refused (nothing listens on the port) and the open ones are closed. */
  async cut(): Promise<void> {
    // server.close() only calls back once every accepted connection has ended, so they are dropped meanwhile.
    const closed = this.closeListener();
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
    await closed;
  }

  /** Every open connection is reset (TCP RST), and so is every new one until restore: a crashed, restarting peer. */
  reset(): void {
    this.resetting = true;
    for (const [client, upstream] of this.pairs) {
      resetOrDestroy(client);
      upstream.destroy();
    }
    this.pairs.clear();
  }

  /** Connections stay open and new ones are accepted, but no byte goes through in either direction: a hung peer. */
  freeze(): void {
    this.frozen = true;
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  }

  /** Forwards again: held bytes flow on, and a cut relay listens again on the same port. */
  async restore(): Promise<void> {
    this.frozen = false;
    this.resetting = false;
    for (const pair of this.pairs) this.forward(pair);
    if (!this.server) await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private async listen(port: number): Promise<void> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  private async closeListener(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.resetting) {
      client.resetAndDestroy();
      return;
    }
    const upstream = new Socket();
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    const drop = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pause();
    upstream.connect(this.targetPort, this.targetHost, () => {
      if (!this.frozen) this.forward(pair);
    });
  }

  private forward([client, upstream]: [Socket, Socket]): void {
    if (client.destroyed || upstream.destroyed || upstream.connecting) return;
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
    upstream.resume();
  }
}

// A socket whose end() was sent (the database closed its side and the pipe passed it on) is destroyed, not reset: Node
// cannot reset it while its shutdown is pending, and leaves its handle open, which spins the process at exit.
function resetOrDestroy(socket: Socket): void {
  if (socket.writableEnded) socket.destroy();
  else socket.resetAndDestroy();
}
