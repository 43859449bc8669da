import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { ClientCache } from '../../src/client-cache/client-cache';
import { createApp } from '../../src/create-app';
import { ProviderHostApproval } from '../../src/provider-host/provider-host-approval';
import CLIENT from '../fixtures/client.json';
import SMS_CONFIG from '../fixtures/sms-config.json';
import { assertAnswerMatchesContract, assertRequestMatchesContract } from './contract';
import { assertRefusalIsDescribed } from './document-validator';

/** As long as production requires (32 characters), so a test may start the service with NODE_ENV=production. */
export const ADMIN_API_KEY = 'test-admin-key-3f9a1c-5e8b20d7a64f19';
/** The SMS dispatcher's key (DISPATCHER_API_KEYS), as long as production requires. */
export const DISPATCHER_API_KEY = 'test-dispatcher-key-7b1e4c9a2d6f03e8';
/** Two keys, so tests can rotate: the first seals, both open. */
export const KEY_A = `keyA:${fixedKeyBytes(1).toString('base64')}`;
export const KEY_B = `keyB:${fixedKeyBytes(2).toString('base64')}`;
/** 32 distinct bytes, the same in every run, so a key is as varied as production requires. */
function fixedKeyBytes(seed: number): Buffer {
  return Buffer.from(Array.from({ length: 32 }, (_, index) => (index * 37 + seed * 11) % 256));
}
export const MYSQL_SERVER_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
/** Several checkouts can run their suites at once on one MariaDB and RabbitMQ when each sets its own prefix. */
export const TEST_DATABASE_PREFIX = process.env.TEST_DATABASE_PREFIX ?? 'registry';
/** Each jest worker talks to a RabbitMQ vhost of its own (test/helpers/broker-vhosts.ts), as it has its own database. */
export const AMQP_URL = process.env.TEST_AMQP_URL ?? `amqp://guest:guest@127.0.0.1:5672/${workerVhost(process.env.JEST_WORKER_ID ?? '1')}`;
export function workerVhost(workerId: string): string {
  return `${TEST_DATABASE_PREFIX}-${workerId}`;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any;
  raw: string;
}

export interface TestApp {
  app: NestFastifyApplication;
  dataSource: DataSource;
  /** POSTs JSON (or a raw payload) through Fastify's inject: the whole pipeline, no socket; request and answer must match openapi.json. */
  post(
    url: string,
    options?: { headers?: Record<string, string>; body?: unknown; payload?: string; remoteAddress?: string },
  ): Promise<Answer>;
  get(url: string, headers?: Record<string, string>): Promise<Answer>;
  /**
   * Any method, JSON body optional; an accepted request and the answer must match openapi.json, and a refused request
   * that openapi.json accepts must be refused for stored state or a rule its descriptions state.
   */
  send(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    options?: { headers?: Record<string, string>; body?: unknown; payload?: string; remoteAddress?: string },
  ): Promise<Answer>;
  addClient(overrides?: Record<string, unknown>): Promise<string>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The database this test file uses: its own MySQL schema per jest worker, or its own SQLite file. */
export async function testDatabaseUrl(): Promise<string> {
  if (process.env.TEST_DATABASE !== 'mysql') return `sqlite:${join(mkdtempSync(join(tmpdir(), 'registry-e2e-')), 'registry.sqlite')}`;
  const database = `${TEST_DATABASE_PREFIX}_e2e_${process.env.JEST_WORKER_ID ?? '0'}`;
  const connection = await createConnection(MYSQL_SERVER_URL);
  await connection.query(`CREATE DATABASE IF NOT EXISTS ${database}`);
  await connection.end();
  return `${MYSQL_SERVER_URL}/${database}`;
}

/**
 * Boots the real AppModule (same pipe, filter and guards as production) with the environment a test gives, on an
 * empty database (suites on one jest worker share its MySQL schema); `keepData` restarts on what is there.
 */
export async function startTestApp(env: Record<string, string> = {}, options: { keepData?: boolean } = {}): Promise<TestApp> {
  const previous = { ...process.env };
  Object.assign(process.env, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ADMIN_API_KEYS: ADMIN_API_KEY,
    DISPATCHER_API_KEYS: DISPATCHER_API_KEY,
    ENCRYPTION_KEYS: KEY_A,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'registry-data-')),
    AMQP_URL,
    DATABASE_URL: env.DATABASE_URL ?? (await testDatabaseUrl()),
    ...env,
  });
  let app: NestFastifyApplication;
  try {
    app = await createApp();
  } finally {
    process.env = previous;
  }
  const fastify = app.getHttpAdapter().getInstance();
  const dataSource = app.get(DataSource);

  const toAnswer = (response: { statusCode: number; headers: Answer['headers']; body: string }): Answer => {
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      body = undefined;
    }
    return { status: response.statusCode, headers: response.headers, body, raw: response.body };
  };

  const testApp: TestApp = {
    app,
    dataSource,
    post(url, options = {}) {
      return testApp.send('POST', url, options);
    },
    get(url, headers = {}) {
      return testApp.send('GET', url, { headers });
    },
    async send(method, url, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      let payload = options.payload;
      if (options.body !== undefined) {
        payload = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const answer = toAnswer(await fastify.inject({ method, url, headers, payload, remoteAddress: options.remoteAddress }));
      assertRequestMatchesContract(method, url, payload, answer.status);
      assertAnswerMatchesContract(method, url, answer);
      await assertRefusalIsDescribed({ method, url, headers, payload }, answer);
      return answer;
    },
    async addClient(overrides = {}) {
      const answer = await testApp.post('/api/client/add', {
        headers: { 'x-api-key': ADMIN_API_KEY },
        body: { ...CLIENT, ...overrides },
      });
      if (answer.status !== 200) throw new Error(`addClient failed: ${answer.raw}`);
      return answer.body.results.secretKey as string;
    },
    async reset() {
      await dataSource.query('DELETE FROM sms_config');
      await dataSource.query('DELETE FROM client_key');
      await dataSource.query('DELETE FROM client');
      await dataSource.query('DELETE FROM audit_event');
      await dataSource.query('DELETE FROM idempotent_request');
      // Rows deleted behind the service's back: its cache would still answer for them.
      app.get(ClientCache).clear();
    },
    async close() {
      // A close that hangs fails its suite at the hook's timeout: say what was still open, for the next one to read.
      const watchdog = setTimeout(() => {
        console.error(`app.close() still running after 20 s; open: ${process.getActiveResourcesInfo().join(', ')}`);
      }, 20_000).unref();
      await app.close().finally(() => clearTimeout(watchdog));
    },
  };
  if (!options.keepData) {
    await testApp.reset();
    // Hosts another suite approved on this worker's database: a suite starts with none, whatever ran before it.
    await dataSource.query('DELETE FROM provider_host');
    const approval = app.get(ProviderHostApproval);
    approval.changed();
    await approval.current();
  }
  return testApp;
}

/** An add-sms-config body with every field (test/fixtures/sms-config.json), with the fields a test is about replaced. */
export const validSmsConfig = (overrides: Record<string, unknown> = {}) => ({ ...SMS_CONFIG, ...overrides });
