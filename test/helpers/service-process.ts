import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import CLIENT from '../fixtures/client.json';
import { assertRefusalIsDescribed } from './document-validator';
import { ADMIN_API_KEY, AMQP_URL, KEY_A, MYSQL_SERVER_URL, TEST_DATABASE_PREFIX } from './test-app';

const DIST = join(__dirname, '..', '..', 'dist');

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: any;
  raw: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Added to the defaults of spawn(); a variable given as undefined is left out of the child's environment. */
export type ServiceEnvironment = Record<string, string | undefined>;

export interface SpawnOptions {
  /** The child's working directory, where it reads `.env`; by default an empty one, so a developer's own `.env` never reaches a test. */
  cwd?: string;
  /** The build to run: another release's dist/ (previousRelease()); by default this checkout's. */
  dist?: string;
}

/**
 * The built service as a child process (node dist/main.js), on an ephemeral port it reports in its log.
 * Shutdown, crash and multi-instance behaviour can only be seen this way: the RabbitMQ module keeps static state,
 * so two apps in one process would share (and close) one broker connection.
 */
export class ServiceProcess {
  readonly exited: Promise<Exit>;
  url = '';
  private readonly logLines: string[] = [];

  private constructor(readonly child: ChildProcess) {
    // 'close', not 'exit': its output has been read to the end by then.
    this.exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  }

  /** Starts the service and waits until it listens; fails with its last lines if it exits or takes too long. */
  static async start(env: ServiceEnvironment, readyTimeoutMs = 30000, options: SpawnOptions = {}): Promise<ServiceProcess> {
    const service = ServiceProcess.spawn(env, 'main.js', options);
    const started = Date.now();
    while (!service.url) {
      const listening = service.logLines.map((line) => /Listening on (http:\/\/[^"\s]+)/.exec(line)?.[1]).find(Boolean);
      if (listening) service.url = listening;
      else if (service.child.exitCode !== null || service.child.signalCode !== null) {
        throw new Error(`service exited before listening:\n${service.logs().slice(-20).join('\n')}`);
      } else if (Date.now() - started > readyTimeoutMs) {
        service.kill('SIGKILL');
        throw new Error(`service did not listen within ${readyTimeoutMs} ms:\n${service.logs().slice(-20).join('\n')}`);
      } else await sleep(25);
    }
    return service;
  }

  /** Starts the service (or another entry point of dist/) without waiting for anything: for starts meant to fail. */
  static spawn(env: ServiceEnvironment, entry = 'main.js', options: SpawnOptions = {}): ServiceProcess {
    const child = spawn(process.execPath, [join(options.dist ?? DIST, entry)], {
      cwd: options.cwd ?? mkdtempSync(join(tmpdir(), 'service-cwd-')),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        PORT: '0',
        HOST: '127.0.0.1',
        ADMIN_API_KEYS: ADMIN_API_KEY,
        ENCRYPTION_KEYS: KEY_A,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'faults-data-')),
        AMQP_URL,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(child);
    for (const stream of [child.stdout, child.stderr]) {
      let pending = '';
      stream.on('data', (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        service.logLines.push(...lines);
      });
      stream.on('end', () => {
        if (pending) service.logLines.push(pending);
      });
    }
    return service;
  }

  logs(): string[] {
    return this.logLines;
  }

  kill(signal: NodeJS.Signals): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }

  async stop(): Promise<void> {
    this.kill('SIGKILL');
    await this.exited;
  }

  async request(
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: unknown; payload?: string | Uint8Array; timeoutMs?: number } = {},
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    let payload = options.payload;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    // What fetch announces for a string body sent without one, made explicit so that the document judges what is sent.
    if (typeof payload === 'string' && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'text/plain;charset=UTF-8';
    }
    const timeoutMs = options.timeoutMs ?? 20000;
    const response = await fetch(this.url + path, {
      method,
      headers,
      // Bytes that are not UTF-8 go out as they are; fetch accepts a Uint8Array at run time.
      body: payload as BodyInit | undefined,
      signal: AbortSignal.timeout(timeoutMs),
    }).catch((error: Error) => {
      throw error.name === 'TimeoutError' ? this.unanswered(`${method} ${path}`, timeoutMs) : error;
    });
    const answer = await readAnswer(response);
    // Raw bytes test the parser, not the document.
    if (typeof payload !== 'object') await assertRefusalIsDescribed({ method, url: path, headers, payload }, answer);
    return answer;
  }

  // A request left unanswered says what the service was doing: a flaky run is read from its own failure.
  private unanswered(request: string, timeoutMs: number): Error {
    const state = this.child.exitCode === null && this.child.signalCode === null ? 'running' : 'exited';
    const lastLines = this.logs()
      .slice(-20)
      .map((line) => line.slice(0, 400));
    return new Error(
      `${request}: no answer within ${timeoutMs} ms (the service is ${state}); its last log lines:\n${lastLines.join('\n')}`,
    );
  }

  post(
    path: string,
    options: { headers?: Record<string, string>; body?: unknown; payload?: string | Uint8Array; timeoutMs?: number } = {},
  ) {
    return this.request('POST', path, options);
  }

  async addClient(overrides: Record<string, unknown> = {}): Promise<string> {
    const answer = await this.post('/api/client/add', {
      headers: { 'x-api-key': ADMIN_API_KEY },
      body: { ...CLIENT, ...overrides },
    });
    if (answer.status !== 200) throw new Error(`addClient failed: ${answer.status} ${answer.raw}`);
    return answer.body.results.secretKey as string;
  }
}

/** An empty MySQL database of this checkout's prefix, dropped first if an earlier run left it. */
/** An answer as the tests read it: status, headers, the body as text and, when it is JSON, parsed. */
export async function readAnswer(response: Response): Promise<HttpAnswer> {
  const raw = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, raw };
}

export async function emptyMysqlDatabase(label: string): Promise<string> {
  const database = `${TEST_DATABASE_PREFIX}_${label}_${process.env.JEST_WORKER_ID ?? '0'}`;
  const connection = await createConnection(MYSQL_SERVER_URL);
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await connection.query(`CREATE DATABASE \`${database}\``);
  } finally {
    await connection.end();
  }
  return `${MYSQL_SERVER_URL}/${database}`;
}

export function sqliteDatabaseUrl(): string {
  return `sqlite:${join(mkdtempSync(join(tmpdir(), 'faults-sqlite-')), 'registry.sqlite')}`;
}

export function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** ms until check() holds; stops looking past giveUpAfterMs, so the caller's expectation of the figure fails, not a timeout. */
export async function msUntil(check: () => Promise<boolean>, giveUpAfterMs: number): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > giveUpAfterMs) break;
    await sleep(10);
  }
  return Date.now() - start;
}

/** Polls until check() is true; returns the milliseconds it took, or throws after timeoutMs. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number, intervalMs = 100): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

/** One line per measured fault figure, so the run's output carries the numbers. */
export function report(fault: string, figures: Record<string, number | string>): void {
  const text = Object.entries(figures)
    .map(([name, value]) => `${name}=${typeof value === 'number' ? `${value} ms` : value}`)
    .join(', ');
  process.stdout.write(`[fault] ${fault}: ${text}\n`);
}
