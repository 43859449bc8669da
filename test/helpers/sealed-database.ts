import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { sha256Hex } from '../../src/auth/digest';
import { EncryptionKey } from '../../src/config/app-config';
import { SealContext, SecretSealer } from '../../src/crypto/secret-sealer';
import { buildDataSourceOptions } from '../../src/database/database-options';
import { runMigrationsUnderLock } from '../../src/database/run-migrations';
import { SqlValue } from '../../src/database/transactions';
import { idempotentAnswerSealContext, idempotentRequestSealContext } from '../../src/idempotency/idempotent-answer-seal-context';
import { ResealOutcome, Resealer } from '../../src/reseal/resealer';
import { ResealStatements, SealedColumnRepository, resealStatements } from '../../src/reseal/sealed-column.repository';
import { SEALED_COLUMNS } from '../../src/reseal/sealed-columns';
import { apiKeySealContext, passwordSealContext } from '../../src/sms-config/sms-config-seal-context';

export const K1: EncryptionKey = { id: 'k1', key: randomBytes(32) };
export const K2: EncryptionKey = { id: 'k2', key: randomBytes(32) };
export const underK1 = new SecretSealer([K1]);
export const underK2Only = new SecretSealer([K2]);

export interface Stored {
  table: string;
  column: string;
  where: SqlValue[];
  context: SealContext;
  plaintext: string;
}

export interface ResealOptions {
  keys?: EncryptionKey[];
  batchSize?: number;
  statements?: ResealStatements;
  stop?: AbortController;
}

/** A SQLite database made by the real migrations, holding sealed values whose plaintext is kept in `stored`: the reseal specs' ground. */
export class SealedDatabase {
  readonly stored: Stored[] = [];
  clientId!: number;

  private constructor(
    private readonly directory: string,
    private readonly dataSource: DataSource,
    readonly sql: ResealStatements,
  ) {}

  static async open(): Promise<SealedDatabase> {
    const directory = mkdtempSync(join(tmpdir(), 'reseal-spec-'));
    const dataSource = await new DataSource(
      buildDataSourceOptions({ type: 'sqlite', path: join(directory, 'registry.sqlite') }),
    ).initialize();
    await runMigrationsUnderLock(dataSource);
    const database = new SealedDatabase(directory, dataSource, resealStatements(dataSource));
    database.clientId = await database.addClient('a');
    return database;
  }

  async close(): Promise<void> {
    await this.dataSource.destroy();
    rmSync(this.directory, { recursive: true, force: true });
  }

  async addClient(name: string): Promise<number> {
    const { insertId } = await this.sql.execute('INSERT INTO client (app_name, app_url, secret_key_digest, is_host) VALUES (?, ?, ?, 0)', [
      name,
      'https://example.com',
      name.repeat(64).slice(0, 64),
    ]);
    return insertId;
  }

  /** An SMS configuration whose password and apiKey (null: none) are sealed by `sealer`; answers its id. */
  async addSmsConfig(password: string | null, apiKey: string | null, sealer = underK1, owner = this.clientId): Promise<number> {
    const { insertId } = await this.sql.execute(
      'INSERT INTO sms_config (client_id, provider_name, sms_api, password_sealed, api_key_sealed) VALUES (?, ?, ?, ?, ?)',
      [owner, 'Twilio', 'https://api.twilio.com/send', null, null],
    );
    for (const [column, plaintext, context] of [
      ['password_sealed', password, passwordSealContext(owner)],
      ['api_key_sealed', apiKey, apiKeySealContext(owner)],
    ] as const) {
      if (plaintext === null) continue;
      await this.sql.execute(`UPDATE sms_config SET ${column} = ? WHERE id = ?`, [sealer.seal(plaintext, context), insertId]);
      this.stored.push({ table: 'sms_config', column, where: [insertId], context, plaintext });
    }
    return insertId;
  }

  /** A kept request, its SHA-256 sealed, and its answer (null: the request is still in progress, no answer sealed). */
  async addKeptRequest(scope: string, key: string, answer: string | null, sealer = underK1): Promise<void> {
    const context = idempotentAnswerSealContext(scope, key);
    const requestContext = idempotentRequestSealContext(scope, key);
    const requestSha256 = sha256Hex(`POST /api/${scope}\n${key}`);
    await this.sql.execute(
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
    this.stored.push({
      table: 'idempotent_request',
      column: 'request_sealed',
      where: [scope, key],
      context: requestContext,
      plaintext: requestSha256,
    });
    if (answer !== null)
      this.stored.push({ table: 'idempotent_request', column: 'answer_sealed', where: [scope, key], context, plaintext: answer });
  }

  async sealedValueOf({ table, column, where }: Pick<Stored, 'table' | 'column' | 'where'>): Promise<string> {
    const condition = table === 'sms_config' ? 'id = ?' : 'scope = ? AND idempotency_key = ?';
    const [row] = await this.sql.query<{ sealed: string }>(`SELECT ${column} AS sealed FROM ${table} WHERE ${condition}`, where);
    return row.sealed;
  }

  /** 14 values under k1 (5 in sms_config, 4 kept answers, 5 kept requests), 2 already under k2, over two clients. */
  async seedSome(): Promise<void> {
    const other = await this.addClient('b');
    await this.addSmsConfig('password-1', 'api-key-1');
    await this.addSmsConfig('password-2', null);
    await this.addSmsConfig(null, null);
    await this.addSmsConfig('password-3', 'api-key-3', underK1, other);
    await this.addSmsConfig('password-4', 'api-key-4', underK2Only);
    await this.addKeptRequest('client-add', 'key-1', '{"secretKey":"sk_1"}');
    await this.addKeptRequest('client-add', 'key-2', '{"secretKey":"sk_2"}');
    await this.addKeptRequest('client-add', 'key-3', null);
    await this.addKeptRequest('sms-config-add', 'key-1', '{"verifyApiKey":"v1"}');
    await this.addKeptRequest('sms-config-add', 'key-2', '{"verifyApiKey":"v2"}');
  }

  /** A run of the Resealer over every sealed column, under [K2, K1] unless told otherwise, with the lines it printed. */
  async reseal(options: ResealOptions = {}): Promise<{ outcome: ResealOutcome; lines: string[] }> {
    const keys = options.keys ?? [K2, K1];
    const lines: string[] = [];
    const resealer = new Resealer(
      SEALED_COLUMNS.map((sealedColumn) => new SealedColumnRepository(options.statements ?? this.sql, sealedColumn)),
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
}
