import { randomBytes } from 'node:crypto';
import { Connection, createConnection } from 'mysql2/promise';
import { sha256Hex } from '../../src/auth/digest';
import { parseEncryptionKeys } from '../../src/config/encryption-keys';
import { SealContext, SecretSealer } from '../../src/crypto/secret-sealer';
import { idempotentAnswerSealContext, idempotentRequestSealContext } from '../../src/idempotency/idempotent-answer-seal-context';
import { apiKeySealContext, passwordSealContext } from '../../src/sms-config/sms-config-seal-context';
import { Exit, ServiceProcess, ServiceEnvironment, emptyMysqlDatabase } from '../helpers/service-process';
import { KEY_A, KEY_B } from '../helpers/test-app';

/** A key no configuration lists: values sealed under it cannot be moved. */
const KEY_C = `keyC:${randomBytes(32).toString('base64')}`;
const underKeyB = new SecretSealer(parseEncryptionKeys(KEY_B));
const underKeyAOnly = new SecretSealer(parseEncryptionKeys(KEY_A));

interface Run {
  exit: Exit;
  /** What the process wrote to stdout, line by line (stderr apart). */
  stdout: string[];
}

/** dist/reseal.js (or another entry of dist/) on `databaseUrl`; `onLine` sees each stdout line as it comes. */
async function run(entry: string, env: ServiceEnvironment, onLine: (line: string, child: ServiceProcess) => void = () => {}): Promise<Run> {
  const service = ServiceProcess.spawn(env, entry);
  const stdout: string[] = [];
  let pending = '';
  service.child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString('utf8')).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      stdout.push(line);
      onLine(line, service);
    }
  });
  const exit = await service.exited;
  if (pending) stdout.push(pending);
  return { exit, stdout };
}

/** A value as seeded: where it is and what it holds. */
interface Seeded {
  table: string;
  column: string;
  where: Array<string | number>;
  context: SealContext;
  plaintext: string;
}

class Seeder {
  readonly seeded: Seeded[] = [];

  constructor(private readonly db: Connection) {}

  async client(name: string): Promise<number> {
    const [result] = await this.db.query<any>('INSERT INTO client (app_name, app_url, secret_key_digest, is_host) VALUES (?, ?, ?, 0)', [
      name,
      'https://example.com',
      name.padEnd(64, '0'),
    ]);
    return result.insertId as number;
  }

  /** `count` configurations of `clientId`, password and apiKey sealed by `sealer` (every third one without an apiKey). */
  async smsConfigs(clientId: number, count: number, sealer = underKeyB): Promise<void> {
    const [result] = await this.db.query<any>(
      'INSERT INTO sms_config (client_id, provider_name, sms_api, password_sealed, api_key_sealed) VALUES ?',
      [
        Array.from({ length: count }, (_, index) => [
          clientId,
          'Twilio',
          'https://api.twilio.com/send',
          sealer.seal(`password-${clientId}-${index}`, passwordSealContext(clientId)),
          index % 3 === 2 ? null : sealer.seal(`api-key-${clientId}-${index}`, apiKeySealContext(clientId)),
        ]),
      ],
    );
    for (let index = 0; index < count; index++) {
      const id = (result.insertId as number) + index;
      const password = { column: 'password_sealed', context: passwordSealContext(clientId), plaintext: `password-${clientId}-${index}` };
      const apiKey = { column: 'api_key_sealed', context: apiKeySealContext(clientId), plaintext: `api-key-${clientId}-${index}` };
      for (const value of index % 3 === 2 ? [password] : [password, apiKey])
        this.seeded.push({ table: 'sms_config', where: [id], ...value });
    }
  }

  /** A retried request kept, its SHA-256 sealed, and its answer (null: still in progress, no answer sealed). */
  async keptRequest(scope: string, key: string, answer: string | null, sealer = underKeyB): Promise<void> {
    const context = idempotentAnswerSealContext(scope, key);
    const requestContext = idempotentRequestSealContext(scope, key);
    const requestSha256 = sha256Hex(`POST /api/${scope}\n${key}`);
    await this.db.query(
      `INSERT INTO idempotent_request
         (scope, idempotency_key, request_digest, request_sealed, claim, claimed_until, status_code, answer_sealed, expires_at)
       VALUES (?, ?, ?, ?, ?, NOW(3), 200, ?, NOW(3) + INTERVAL 1 DAY)`,
      [
        scope,
        key,
        'd'.repeat(64),
        sealer.seal(requestSha256, requestContext),
        'c'.repeat(36),
        answer === null ? null : sealer.seal(answer, context),
      ],
    );
    this.seeded.push({
      table: 'idempotent_request',
      column: 'request_sealed',
      where: [scope, key],
      context: requestContext,
      plaintext: requestSha256,
    });
    if (answer !== null)
      this.seeded.push({ table: 'idempotent_request', column: 'answer_sealed', where: [scope, key], context, plaintext: answer });
  }

  async sealedValueOf({ table, column, where }: Seeded): Promise<string> {
    const condition = table === 'sms_config' ? 'id = ?' : 'scope = ? AND idempotency_key = ?';
    const [rows] = await this.db.query<any[]>(`SELECT ${column} AS sealed FROM ${table} WHERE ${condition}`, where);
    return rows[0].sealed as string;
  }
}

describe('npm run reseal (node dist/reseal.js) on MySQL', () => {
  let db: Connection | undefined;
  afterEach(() => db?.end());

  /** A fresh database, migrated by dist/migrate.js, and a connection to seed it. */
  async function migratedDatabase(label: string): Promise<{ url: string; seeder: Seeder }> {
    const url = await emptyMysqlDatabase(label);
    expect((await run('migrate.js', { DATABASE_URL: url, ENCRYPTION_KEYS: KEY_B })).exit).toEqual({ code: 0, signal: null });
    db = await createConnection(url);
    return { url, seeder: new Seeder(db) };
  }

  it('should move every value under keyB to keyA, so that they open once keyB is removed; a second run moves nothing', async () => {
    const { url, seeder } = await migratedDatabase('reseal_moves');
    await seeder.smsConfigs(await seeder.client('a'), 4);
    await seeder.smsConfigs(await seeder.client('b'), 3);
    await seeder.keptRequest('client-add', 'retry-1', '{"status":200,"results":{"secretKey":"sk_one"}}');
    await seeder.keptRequest('client-add', 'retry-2', null);
    await seeder.keptRequest('sms-config-add', 'retry-1', '{"status":200,"results":{"verifyApiKey":"token"}}');
    const values = seeder.seeded.length;
    // Passwords, apiKeys (every third configuration has none), kept requests, kept answers (the one in progress has none).
    expect(values).toBe(4 + 3 + (3 + 2) + 3 + 2);

    const first = await run('reseal.js', { DATABASE_URL: url, ENCRYPTION_KEYS: `${KEY_A},${KEY_B}` });
    expect(first.exit).toEqual({ code: 0, signal: null });
    expect(first.stdout.at(-1)).toBe(`reseal: moved ${values}; remaining keyB=0`);
    for (const value of seeder.seeded) {
      const sealed = await seeder.sealedValueOf(value);
      expect(sealed.startsWith('keyA:')).toBe(true);
      // keyB removed from ENCRYPTION_KEYS: every value still opens, to what was stored.
      expect(underKeyAOnly.open(sealed, value.context)).toBe(value.plaintext);
    }
    const output = first.stdout.join('\n');
    for (const value of seeder.seeded) expect(output).not.toContain(value.plaintext);

    const second = await run('reseal.js', { DATABASE_URL: url, ENCRYPTION_KEYS: `${KEY_A},${KEY_B}` });
    expect(second.exit).toEqual({ code: 0, signal: null });
    expect(second.stdout.at(-1)).toBe('reseal: moved 0; remaining keyB=0');
    const withoutKeyB = await run('reseal.js', { DATABASE_URL: url, ENCRYPTION_KEYS: KEY_A });
    expect(withoutKeyB.exit).toEqual({ code: 0, signal: null });
    // Only one key listed: no older key to name.
    expect(withoutKeyB.stdout.at(-1)).toBe('reseal: moved 0; remaining none');
  }, 60_000);

  it('should exit 1 and name the key id in what remains when a value is sealed under a key that is not listed', async () => {
    const { url, seeder } = await migratedDatabase('reseal_unlisted');
    const clientId = await seeder.client('a');
    await seeder.smsConfigs(clientId, 3);
    await seeder.keptRequest(
      'client-add',
      'retry-c',
      '{"status":200,"results":{"secretKey":"sk_under_c"}}',
      new SecretSealer(parseEncryptionKeys(KEY_C)),
    );
    const underC = seeder.seeded.slice(-2);
    const movable = seeder.seeded.length - underC.length;

    const { exit, stdout } = await run('reseal.js', { DATABASE_URL: url, ENCRYPTION_KEYS: `${KEY_A},${KEY_B}` });
    expect(exit).toEqual({ code: 1, signal: null });
    for (const column of ['answer_sealed', 'request_sealed']) {
      expect(stdout).toContain(
        `reseal: idempotent_request.${column} of scope client-add, idempotency_key retry-c: ` +
          'sealed under key id keyC, which ENCRYPTION_KEYS does not list',
      );
    }
    expect(stdout.at(-1)).toBe(`reseal: moved ${movable}; remaining keyB=0, keyC=2`);
    for (const value of underC) expect(await seeder.sealedValueOf(value)).toMatch(/^keyC:/);
    expect(stdout.join('\n')).not.toContain('sk_under_c');
  }, 60_000);

  it('should stop on SIGTERM after the value in hand, say how far it got, and finish when run again', async () => {
    const { url, seeder } = await migratedDatabase('reseal_stopped');
    await seeder.smsConfigs(await seeder.client('a'), 1500);
    const values = seeder.seeded.length;
    const env = { DATABASE_URL: url, ENCRYPTION_KEYS: `${KEY_A},${KEY_B}` };

    const stopped = await run('reseal.js', env, (line, child) => {
      if (line.startsWith('reseal: sms_config.password_sealed: 500 read')) child.kill('SIGTERM');
    });
    expect(stopped.exit).toEqual({ code: 1, signal: null });
    expect(stopped.stdout.at(-2)).toMatch(
      /^reseal: stopped \(SIGTERM\) at sms_config\.password_sealed, id \d+, after moving \d+ of its values; run it again to go on$/,
    );
    const [, movedFirst, remaining] = /^reseal: moved (\d+); remaining keyB=(\d+)$/.exec(stopped.stdout.at(-1)!)!.map(Number);
    expect(movedFirst).toBeGreaterThanOrEqual(500);
    expect(movedFirst + remaining).toBe(values);

    const rest = await run('reseal.js', env);
    // Its last lines with the exit: what a second run that does not finish was doing.
    expect({ exit: rest.exit, last: rest.stdout.slice(-3) }).toEqual({ exit: { code: 0, signal: null }, last: expect.any(Array) });
    expect(rest.stdout.at(-1)).toBe(`reseal: moved ${remaining}; remaining keyB=0`);
  }, 120_000);
});
