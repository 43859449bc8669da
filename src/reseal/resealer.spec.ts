import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { sha256Hex } from '../auth/digest';
import { EncryptionKey } from '../config/app-config';
import { SealContext, SecretSealer } from '../crypto/secret-sealer';
import { buildDataSourceOptions } from '../database/database-options';
import { runMigrationsUnderLock } from '../database/run-migrations';
import { SqlValue } from '../database/transactions';
import { idempotentAnswerSealContext, idempotentRequestSealContext } from '../idempotency/idempotent-answer-seal-context';
import { apiKeySealContext, passwordSealContext } from '../sms-config/sms-config-seal-context';
import { ResealOutcome, Resealer, isComplete } from './resealer';
import { ResealStatements, SealedColumnRepository, resealStatements } from './sealed-column.repository';
import { SEALED_COLUMNS } from './sealed-columns';

const K1: EncryptionKey = { id: 'k1', key: randomBytes(32) };
const K2: EncryptionKey = { id: 'k2', key: randomBytes(32) };
const GONE: EncryptionKey = { id: 'gone', key: randomBytes(32) };
/** Listed last, yet first in the alphabet: the summary keeps the order of ENCRYPTION_KEYS. */
const OLD: EncryptionKey = { id: 'aold', key: randomBytes(32) };
/** keyA of test/helpers/test-app.ts, and a password SecretSealer v1 sealed under it (see secret-sealer.spec.ts). */
const LEGACY: EncryptionKey = { id: 'keyA', key: Buffer.from(Array.from({ length: 32 }, (_, index) => (index * 37 + 11) % 256)) };
const V1_PASSWORD = 'keyA:9nUVKuWTWnE-Xa2PfgFDJ1o2wPtzoQbnPKl47TKV1RuzCAXrr3yhXd31QFhxvw_7mg';

const underK1 = new SecretSealer([K1]);
const underK2Only = new SecretSealer([K2]);

interface Stored {
  table: string;
  column: string;
  where: SqlValue[];
  context: SealContext;
  plaintext: string;
}

describe('Resealer, on a SQLite database made by the real migrations', () => {
  let directory: string;
  let dataSource: DataSource;
  let sql: ResealStatements;
  let clientId: number;
  let stored: Stored[];

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'reseal-spec-'));
    dataSource = await new DataSource(buildDataSourceOptions({ type: 'sqlite', path: join(directory, 'registry.sqlite') })).initialize();
    await runMigrationsUnderLock(dataSource);
    sql = resealStatements(dataSource);
    clientId = await addClient('a');
    stored = [];
  });

  afterEach(async () => {
    await dataSource.destroy();
    rmSync(directory, { recursive: true, force: true });
  });

  async function addClient(name: string): Promise<number> {
    const { insertId } = await sql.execute('INSERT INTO client (app_name, app_url, secret_key_digest, is_host) VALUES (?, ?, ?, 0)', [
      name,
      'https://example.com',
      name.repeat(64).slice(0, 64),
    ]);
    return insertId;
  }

  /** An SMS configuration whose password and apiKey (null: none) are sealed by `sealer`; answers its id. */
  async function addSmsConfig(password: string | null, apiKey: string | null, sealer = underK1, owner = clientId): Promise<number> {
    const { insertId } = await sql.execute(
      'INSERT INTO sms_config (client_id, provider_name, sms_api, password_sealed, api_key_sealed) VALUES (?, ?, ?, ?, ?)',
      [owner, 'Twilio', 'https://api.twilio.com/send', null, null],
    );
    for (const [column, plaintext, context] of [
      ['password_sealed', password, passwordSealContext(owner)],
      ['api_key_sealed', apiKey, apiKeySealContext(owner)],
    ] as const) {
      if (plaintext === null) continue;
      await sql.execute(`UPDATE sms_config SET ${column} = ? WHERE id = ?`, [sealer.seal(plaintext, context), insertId]);
      stored.push({ table: 'sms_config', column, where: [insertId], context, plaintext });
    }
    return insertId;
  }

  /** A kept request, its SHA-256 sealed, and its answer (null: the request is still in progress, no answer sealed). */
  async function addKeptRequest(scope: string, key: string, answer: string | null, sealer = underK1): Promise<void> {
    const context = idempotentAnswerSealContext(scope, key);
    const requestContext = idempotentRequestSealContext(scope, key);
    const requestSha256 = sha256Hex(`POST /api/${scope}\n${key}`);
    await sql.execute(
      `INSERT INTO idempotent_request
         (scope, idempotency_key, request_digest, request_sealed, claim, claimed_until, status_code, answer_sealed, expires_at)
       VALUES (?, ?, ?, ?, ?, datetime('now'), 200, ?, datetime('now', '+1 day'))`,
      [
        scope,
        key,
        'd'.repeat(64),
        sealer.seal(requestSha256, requestContext),
        'c'.repeat(36),
        answer === null ? null : sealer.seal(answer, context),
      ],
    );
    stored.push({
      table: 'idempotent_request',
      column: 'request_sealed',
      where: [scope, key],
      context: requestContext,
      plaintext: requestSha256,
    });
    if (answer !== null)
      stored.push({ table: 'idempotent_request', column: 'answer_sealed', where: [scope, key], context, plaintext: answer });
  }

  async function sealedValueOf({ table, column, where }: Pick<Stored, 'table' | 'column' | 'where'>): Promise<string> {
    const condition = table === 'sms_config' ? 'id = ?' : 'scope = ? AND idempotency_key = ?';
    const [row] = await sql.query<{ sealed: string }>(`SELECT ${column} AS sealed FROM ${table} WHERE ${condition}`, where);
    return row.sealed;
  }

  async function reseal(
    options: { keys?: EncryptionKey[]; batchSize?: number; statements?: ResealStatements; stop?: AbortController } = {},
  ): Promise<{ outcome: ResealOutcome; lines: string[] }> {
    const keys = options.keys ?? [K2, K1];
    const lines: string[] = [];
    const resealer = new Resealer(
      SEALED_COLUMNS.map((sealedColumn) => new SealedColumnRepository(options.statements ?? sql, sealedColumn)),
      new SecretSealer(keys),
      keys.map((key) => key.id),
      (line) => {
        lines.push(line);
        // Asked to stop once the first batch is written, as a SIGTERM would.
        if (line.includes(' read, ')) options.stop?.abort('SIGTERM');
      },
      options.batchSize,
    );
    return { outcome: await resealer.run(options.stop?.signal), lines };
  }

  async function seedSome(): Promise<void> {
    const other = await addClient('b');
    await addSmsConfig('password-1', 'api-key-1');
    await addSmsConfig('password-2', null);
    await addSmsConfig(null, null);
    await addSmsConfig('password-3', 'api-key-3', underK1, other);
    await addSmsConfig('password-4', 'api-key-4', underK2Only);
    await addKeptRequest('client-add', 'key-1', '{"secretKey":"sk_1"}');
    await addKeptRequest('client-add', 'key-2', '{"secretKey":"sk_2"}');
    await addKeptRequest('client-add', 'key-3', null);
    await addKeptRequest('sms-config-add', 'key-1', '{"verifyApiKey":"v1"}');
    await addKeptRequest('sms-config-add', 'key-2', '{"verifyApiKey":"v2"}');
  }

  it('should seal every value under the first key, batch after batch, so that it opens once the older key is removed', async () => {
    await seedSome();
    const { outcome, lines } = await reseal({ batchSize: 2 });

    // 5 values under k1 in sms_config (2 already under k2), 4 kept answers (the one in progress has none), 5 kept requests.
    expect(outcome).toEqual({ moved: 14, failed: 0, remaining: [{ keyId: 'k1', count: 0 }], stopped: false });
    expect(isComplete(outcome)).toBe(true);
    expect(lines.at(-1)).toBe('reseal: moved 14; remaining k1=0');
    expect(lines).toContain('reseal: sms_config.password_sealed: 4 read, 3 moved, 1 already under k2, 0 changed meanwhile, 0 failed');
    expect(lines).toContain('reseal: idempotent_request.answer_sealed: 4 read, 4 moved, 0 already under k2, 0 changed meanwhile, 0 failed');
    expect(lines).toContain(
      'reseal: idempotent_request.request_sealed: 5 read, 5 moved, 0 already under k2, 0 changed meanwhile, 0 failed',
    );
    for (const value of stored) {
      const sealed = await sealedValueOf(value);
      expect(sealed).toMatch(/^k2:v2:/);
      expect(underK2Only.open(sealed, value.context)).toBe(value.plaintext);
    }
    const output = lines.join('\n');
    for (const value of stored) expect(output).not.toContain(value.plaintext);
  });

  it('should move nothing the second time, and leave the values as they are', async () => {
    await seedSome();
    expect((await reseal()).outcome.moved).toBe(14);
    const after = await Promise.all(stored.map(sealedValueOf));

    const again = await reseal();
    expect(again.outcome).toEqual({ moved: 0, failed: 0, remaining: [{ keyId: 'k1', count: 0 }], stopped: false });
    expect(again.lines.at(-1)).toBe('reseal: moved 0; remaining k1=0');
    expect(await Promise.all(stored.map(sealedValueOf))).toEqual(after);
  });

  it('should name every older key listed, in ENCRYPTION_KEYS order, with 0 once nothing is left under it', async () => {
    await seedSome();
    const { outcome, lines } = await reseal({ keys: [K2, K1, OLD] });
    expect(outcome.remaining).toEqual([
      { keyId: 'k1', count: 0 },
      { keyId: 'aold', count: 0 },
    ]);
    expect(isComplete(outcome)).toBe(true);
    expect(lines.at(-1)).toBe('reseal: moved 14; remaining k1=0, aold=0');
  });

  it('should answer remaining none only when a single key is listed', async () => {
    await addSmsConfig('password', 'api-key', underK2Only);
    const { outcome, lines } = await reseal({ keys: [K2] });
    expect(outcome).toEqual({ moved: 0, failed: 0, remaining: [], stopped: false });
    expect(isComplete(outcome)).toBe(true);
    expect(lines.at(-1)).toBe('reseal: moved 0; remaining none');
  });

  it('should seal a value of the format before v2 again, bound to its row', async () => {
    const id = await addSmsConfig(null, null);
    await sql.execute('UPDATE sms_config SET password_sealed = ? WHERE id = ?', [V1_PASSWORD, id]);

    const { outcome } = await reseal({ keys: [K2, LEGACY] });
    expect(outcome.moved).toBe(1);
    const sealed = await sealedValueOf({ table: 'sms_config', column: 'password_sealed', where: [id] });
    expect(underK2Only.open(sealed, passwordSealContext(clientId))).toBe('password-sealed-by-v1');
  });

  it('should leave a value that a writer replaced between read and write as that writer wrote it', async () => {
    await seedSome();
    const target = stored.find((value) => value.column === 'password_sealed')!;
    const written = new SecretSealer([K2]).seal('written-meanwhile', target.context);
    let raced = false;
    const racing: ResealStatements = {
      dialect: sql.dialect,
      query: (text, values) => sql.query(text, values),
      execute: async (text, values) => {
        if (!raced && text.startsWith('UPDATE sms_config SET password_sealed') && values.includes(target.where[0])) {
          raced = true;
          await sql.execute('UPDATE sms_config SET password_sealed = ? WHERE id = ?', [written, target.where[0]]);
        }
        return sql.execute(text, values);
      },
    };

    const { outcome, lines } = await reseal({ statements: racing });
    expect(raced).toBe(true);
    expect(await sealedValueOf(target)).toBe(written);
    expect(outcome).toEqual({ moved: 13, failed: 0, remaining: [{ keyId: 'k1', count: 0 }], stopped: false });
    expect(lines).toContain('reseal: sms_config.password_sealed: 4 read, 2 moved, 1 already under k2, 1 changed meanwhile, 0 failed');
  });

  it('should report a value that does not open by its row and column, go on with the others, and fail', async () => {
    await seedSome();
    const first = stored.find((value) => value.column === 'password_sealed')!;
    const second = stored.find((value) => value.column === 'password_sealed' && value.context.owner !== first.context.owner)!;
    // A value copied into another client's row: sealed for the first client, it does not open in the second's.
    const copied = await sealedValueOf(first);
    await sql.execute('UPDATE sms_config SET password_sealed = ? WHERE id = ?', [copied, second.where[0]]);

    const { outcome, lines } = await reseal();
    expect(outcome).toEqual({ moved: 13, failed: 1, remaining: [{ keyId: 'k1', count: 1 }], stopped: false });
    expect(isComplete(outcome)).toBe(false);
    expect(lines).toContain(
      `reseal: sms_config.password_sealed of id ${String(second.where[0])}: does not open under key id k1 ` +
        '(sealed value was altered, sealed under another key or for another place)',
    );
    expect(lines.at(-1)).toBe('reseal: moved 13; remaining k1=1');
    expect(lines.join('\n')).not.toContain(copied);
  });

  it('should report a value under a key id ENCRYPTION_KEYS does not list, name it in what remains, and fail', async () => {
    await seedSome();
    await addSmsConfig('password-gone', null, new SecretSealer([GONE]));
    await addKeptRequest('client-add', 'key-gone', '{"secretKey":"sk_gone"}', new SecretSealer([GONE]));
    const plain = await addSmsConfig(null, null);
    await sql.execute('UPDATE sms_config SET api_key_sealed = ? WHERE id = ?', ['an-api-key-never-sealed', plain]);

    const { outcome, lines } = await reseal();
    expect(outcome.failed).toBe(4);
    expect(outcome.remaining).toEqual([
      { keyId: 'k1', count: 0 },
      { keyId: '(malformed)', count: 1 },
      { keyId: 'gone', count: 3 },
    ]);
    expect(isComplete(outcome)).toBe(false);
    expect(lines).toContain(
      'reseal: idempotent_request.answer_sealed of scope client-add, idempotency_key key-gone: sealed under key id gone, which ENCRYPTION_KEYS does not list',
    );
    expect(lines).toContain(
      'reseal: idempotent_request.request_sealed of scope client-add, idempotency_key key-gone: sealed under key id gone, which ENCRYPTION_KEYS does not list',
    );
    expect(lines).toContain(
      `reseal: sms_config.api_key_sealed of id ${plain}: sealed under key id (malformed), which ENCRYPTION_KEYS does not list`,
    );
    expect(lines.at(-1)).toBe('reseal: moved 14; remaining k1=0, (malformed)=1, gone=3');
    expect(lines.join('\n')).not.toMatch(/password-gone|sk_gone|an-api-key-never-sealed/);
  });

  it('should fail on a value under the current key that does not open, which is not counted as remaining', async () => {
    const id = await addSmsConfig('password', null, new SecretSealer([K2]));
    const sealed = await sealedValueOf({ table: 'sms_config', column: 'password_sealed', where: [id] });
    const altered = `${sealed.slice(0, -5)}${sealed.at(-5) === 'A' ? 'B' : 'A'}${sealed.slice(-4)}`;
    await sql.execute('UPDATE sms_config SET password_sealed = ? WHERE id = ?', [altered, id]);

    const { outcome, lines } = await reseal();
    expect(outcome).toEqual({ moved: 0, failed: 1, remaining: [{ keyId: 'k1', count: 0 }], stopped: false });
    expect(isComplete(outcome)).toBe(false);
    expect(lines.at(-1)).toBe('reseal: moved 0; remaining k1=0');
  });

  it('should stop after the value in hand when asked, say how far it got, and finish the rest when run again', async () => {
    await seedSome();
    const stop = new AbortController();
    const stopped = await reseal({ batchSize: 2, stop });
    expect(stopped.outcome).toEqual({ moved: 2, failed: 0, remaining: [{ keyId: 'k1', count: 12 }], stopped: true });
    expect(isComplete(stopped.outcome)).toBe(false);
    expect(stopped.lines.slice(-2)).toEqual([
      'reseal: stopped (SIGTERM) at sms_config.password_sealed, id 4, after moving 2 of its values; run it again to go on',
      'reseal: moved 2; remaining k1=12',
    ]);

    const rest = await reseal({ batchSize: 2 });
    expect(rest.outcome).toEqual({ moved: 12, failed: 0, remaining: [{ keyId: 'k1', count: 0 }], stopped: false });
    expect(rest.lines.at(-1)).toBe('reseal: moved 12; remaining k1=0');
  });

  it('should say so, and fail, when values under an older key remain after a whole run', async () => {
    await addSmsConfig('password', null);
    let added = false;
    const lateWriter: ResealStatements = {
      dialect: sql.dialect,
      query: async <T>(text: string, values?: SqlValue[]) => {
        // An instance still sealing with k1 adds a configuration once the walk is past it.
        if (text.includes('COUNT(*)') && !added) {
          added = true;
          await addSmsConfig('late', null);
        }
        return sql.query<T>(text, values);
      },
      execute: (text, values) => sql.execute(text, values),
    };

    const { outcome, lines } = await reseal({ statements: lateWriter });
    expect(outcome).toEqual({ moved: 1, failed: 0, remaining: [{ keyId: 'k1', count: 1 }], stopped: false });
    expect(isComplete(outcome)).toBe(false);
    expect(lines.slice(-2)).toEqual([
      'reseal: values under older keys were written during the run: once every instance seals with k2 (first in ENCRYPTION_KEYS), run it again',
      'reseal: moved 1; remaining k1=1',
    ]);
  });
});
