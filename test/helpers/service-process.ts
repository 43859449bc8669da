import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The variables the service reads; a child started with `inheritConfig: false` sees none of them from the test's environment. */
const SERVICE_VARIABLES = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'DATA_DIR',
  'AMQP_URL',
  'ADMIN_API_KEYS',
  'ENCRYPTION_KEYS',
  'LOG_LEVEL',
  'LOG_FORMAT',
  'SHUTDOWN_DELAY_MS',
];

export interface Service {
  url: string;
  process: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs the built service (`node dist/main.js`, as the README's start command does) and waits for a ready /health. */
export async function startService(options: { env?: Record<string, string>; inheritConfig?: boolean; readyTimeoutMs?: number } = {}): Promise<Service> {
  const port = await freePort();
  const baseEnv = { ...process.env };
  if (options.inheritConfig === false) for (const name of SERVICE_VARIABLES) delete baseEnv[name];
  const child = spawn(process.execPath, [join(__dirname, '..', '..', 'dist', 'main.js')], {
    env: { ...baseEnv, HOST: '127.0.0.1', PORT: String(port), LOG_FORMAT: 'json', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/health`)).status === 200) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (Date.now() >= deadline) {
    child.kill('SIGKILL');
    throw new Error(`service was not ready in time:\n${output}`);
  }

  return {
    url,
    process: child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
