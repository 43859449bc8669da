import { Injectable } from '@nestjs/common';
import { JUST_INSERTED } from '../audit/audit-entry';
import { AuditLog } from '../audit/audit.repository';
import { ChangeOrigin } from '../auth/actor';
import { retryDeadlockVictims } from '../database/deadlock-retry';
import { SqlDialect, SqlExecutor, SqlStatements, SqlValue } from '../database/sql-executor';
import { sqlTimestamp } from '../database/timestamps';
import { SmsConfigDto, SmsConfigSummaryDto } from './dto/sms-config-response.dto';
import { MAX_SMS_CONFIGS_PER_CLIENT, smsConfigLimitReached } from './sms-config-limit';

/** A row to insert: the provider's password and apiKey arrive sealed (SecretSealer), never in plaintext. */
export interface NewSmsConfig {
  clientId: number;
  providerName: string;
  providerUrl: string | null;
  username: string | null;
  passwordSealed: string | null;
  apiKeySealed: string | null;
  senderId: string | null;
  smsType: string | null;
  smsApi: string;
  balanceUrl: string | null;
  balance: number;
  perSmsCost: number;
  isActive: boolean;
}

/** The columns of a configuration as its client's answer shows it (no id, never a secret), named as the API names them. */
export const SMS_CONFIG_SUMMARY_COLUMNS = `s.provider_name AS providerName, s.provider_url AS providerUrl, s.username AS username,
  s.sender_id AS senderId, s.sms_type AS smsType, s.sms_api AS smsApi, s.balance_url AS balanceUrl,
  s.balance AS balance, s.per_sms_cost AS perSmsCost, s.is_active AS isActive`;

/** Those columns as both drivers return them. */
export interface SmsConfigSummaryRow {
  providerName: string;
  providerUrl: string | null;
  username: string | null;
  senderId: string | null;
  smsType: string | null;
  smsApi: string;
  balanceUrl: string | null;
  balance: string | number;
  perSmsCost: string | number;
  isActive: number | boolean;
}

const LIST_SQL = `SELECT s.id AS smsConfigId, ${SMS_CONFIG_SUMMARY_COLUMNS} FROM sms_config s WHERE s.client_id = ? ORDER BY s.id`;
const ONE_SQL = `SELECT s.id AS smsConfigId, ${SMS_CONFIG_SUMMARY_COLUMNS} FROM sms_config s WHERE s.id = ? AND s.client_id = ?`;
const SEALED_SQL = `SELECT s.id AS smsConfigId, s.client_id AS clientId, s.password_sealed AS passwordSealed, s.api_key_sealed AS apiKeySealed
  FROM sms_config s WHERE s.id = ? AND s.client_id = ?`;
const RESOLVE_SQL = `SELECT s.id AS smsConfigId, s.client_id AS clientId, c.is_active AS clientIsActive, ${SMS_CONFIG_SUMMARY_COLUMNS},
    s.password_sealed AS passwordSealed, s.api_key_sealed AS apiKeySealed
  FROM sms_config s JOIN client c ON c.id = s.client_id WHERE s.id = ? AND s.client_id = ?`;

/** The fields a configuration's owner may change, and their columns (the secrets arrive sealed). */
export const CHANGEABLE_SMS_CONFIG_COLUMNS = {
  providerName: 'provider_name',
  providerUrl: 'provider_url',
  username: 'username',
  password: 'password_sealed',
  apiKey: 'api_key_sealed',
  senderId: 'sender_id',
  smsType: 'sms_type',
  smsApi: 'sms_api',
  balanceUrl: 'balance_url',
  balance: 'balance',
  perSmsCost: 'per_sms_cost',
  isActive: 'is_active',
} as const;

export type SmsConfigChanges = Partial<Record<keyof typeof CHANGEABLE_SMS_CONFIG_COLUMNS, SqlValue>>;

/** A configuration's sealed secrets, as stored. */
export interface SealedSecrets {
  smsConfigId: number;
  clientId: number;
  passwordSealed: string | null;
  apiKeySealed: string | null;
}

/** A configuration with its sealed secrets and whether its client is active: what a resolution needs. */
export interface SmsConfigToResolve extends SmsConfigDto, SealedSecrets {
  clientIsActive: boolean;
}

const INSERT_COLUMNS = `client_id, provider_name, provider_url, username, password_sealed, api_key_sealed, sender_id, sms_type,
  sms_api, balance_url, balance, per_sms_cost, is_active, created_at`;
const INSERT_VALUES = '?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?';

/** Inserts the configuration only when the UPDATE just before it counted it in (in the same script). */
const INSERT_IF_COUNTED_SQL: Record<SqlDialect, string> = {
  mysql: `INSERT INTO sms_config (${INSERT_COLUMNS}) SELECT ${INSERT_VALUES} FROM DUAL WHERE ROW_COUNT() = 1`,
  sqlite: `INSERT INTO sms_config (${INSERT_COLUMNS}) SELECT ${INSERT_VALUES} WHERE changes() = 1`,
};

/** Counts the configuration in, when the client has room: the UPDATE locks the client's row until the commit. */
const COUNT_IN_SQL = 'UPDATE client SET sms_config_count = sms_config_count + 1 WHERE id = ? AND sms_config_count < ?';

@Injectable()
export class SmsConfigRepository {
  constructor(
    private readonly sql: SqlExecutor,
    private readonly auditLog: AuditLog,
  ) {}

  /**
   * Inserts the configuration and answers its id, committed; past the limit a DomainError (answered 409). One
   * transaction in one round trip: the client's counter goes up only while it is under the limit, which locks the
   * client's row, and the row is inserted only if it did; adds for one client are counted one after another, adds for
   * different clients do not wait on each other. A transaction chosen as a deadlock victim is run again whole.
   */
  async add(smsConfig: NewSmsConfig, origin: ChangeOrigin): Promise<number> {
    const values = [
      smsConfig.clientId,
      smsConfig.providerName,
      smsConfig.providerUrl,
      smsConfig.username,
      smsConfig.passwordSealed,
      smsConfig.apiKeySealed,
      smsConfig.senderId,
      smsConfig.smsType,
      smsConfig.smsApi,
      smsConfig.balanceUrl,
      smsConfig.balance,
      smsConfig.perSmsCost,
      smsConfig.isActive ? 1 : 0,
      sqlTimestamp(new Date()),
    ];
    const audit = this.auditLog.statement({
      action: 'sms-config.created',
      origin,
      clientId: smsConfig.clientId,
      smsConfigId: JUST_INSERTED,
    });
    const add = () =>
      this.sql.script([
        { sql: COUNT_IN_SQL, values: [smsConfig.clientId, MAX_SMS_CONFIGS_PER_CLIENT] },
        { sql: INSERT_IF_COUNTED_SQL[this.sql.dialect], values },
        audit,
      ]);
    // Inside a larger transaction (Idempotency-Key), a deadlock rolls all of it back: it is answered, not retried here.
    const [countedIn, inserted] = await (this.sql.inTransaction ? add() : retryDeadlockVictims(add));
    if (countedIn.affectedRows === 0 || inserted.affectedRows === 0) throw smsConfigLimitReached();
    return inserted.insertId;
  }

  /** One configuration of the client; null when it has none with this id. */
  async findOne(smsConfigId: number, clientId: number, statements: SqlStatements = this.sql): Promise<SmsConfigDto | null> {
    const [row] = await statements.query<SmsConfigSummaryRow & { smsConfigId: number }>(ONE_SQL, [smsConfigId, clientId]);
    return row === undefined ? null : { smsConfigId: Number(row.smsConfigId), ...toSmsConfigSummary(row) };
  }

  /** The configuration's sealed secrets. */
  findSealed(smsConfigId: number, clientId: number): Promise<SealedSecrets | null> {
    return this.sealedSecrets(SEALED_SQL, smsConfigId, clientId, this.sql);
  }

  /**
   * Locks the owning client's row until the transaction ends (MySQL; SQLite transactions take turns anyway). Every change
   * of a client or its configurations takes this lock first: a client's changes then commit one after another, so
   * their audit entries are numbered in the order they commit, which is the order the relay publishes them in.
   */
  async lockOwner(clientId: number, statements: SqlStatements): Promise<void> {
    if (this.sql.dialect === 'mysql') await statements.query('SELECT id FROM client WHERE id = ? FOR UPDATE', [clientId]);
  }

  /** The same, its row locked until the transaction ends (MySQL; SQLite transactions take turns anyway). */
  lockSealed(smsConfigId: number, clientId: number, statements: SqlStatements): Promise<SealedSecrets | null> {
    return this.sealedSecrets(SEALED_SQL + (this.sql.dialect === 'mysql' ? ' FOR UPDATE' : ''), smsConfigId, clientId, statements);
  }

  private async sealedSecrets(
    sql: string,
    smsConfigId: number,
    clientId: number,
    statements: SqlStatements,
  ): Promise<SealedSecrets | null> {
    const [row] = await statements.query<SealedSecrets>(sql, [smsConfigId, clientId]);
    return row === undefined ? null : { ...row, smsConfigId: Number(row.smsConfigId), clientId: Number(row.clientId) };
  }

  /** Everything a resolution answers, with the state of the client. */
  async findToResolve(smsConfigId: number, clientId: number): Promise<SmsConfigToResolve | null> {
    type Row = SmsConfigSummaryRow & SealedSecrets & { clientIsActive: number | boolean };
    const [row] = await this.sql.query<Row>(RESOLVE_SQL, [smsConfigId, clientId]);
    if (row === undefined) return null;
    return {
      ...toSmsConfigSummary(row),
      smsConfigId: Number(row.smsConfigId),
      clientId: Number(row.clientId),
      clientIsActive: Boolean(Number(row.clientIsActive)),
      passwordSealed: row.passwordSealed,
      apiKeySealed: row.apiKeySealed,
    };
  }

  /** Applies the changes with the audit entry naming them. */
  async update(
    smsConfigId: number,
    clientId: number,
    changes: SmsConfigChanges,
    origin: ChangeOrigin,
    statements: SqlStatements,
  ): Promise<void> {
    const fields = Object.keys(changes) as Array<keyof SmsConfigChanges>;
    const assignments = [...fields.map((field) => `${CHANGEABLE_SMS_CONFIG_COLUMNS[field]} = ?`), 'updated_at = ?'];
    await statements.execute(`UPDATE sms_config SET ${assignments.join(', ')} WHERE id = ?`, [
      ...fields.map((field) => changes[field]!),
      sqlTimestamp(new Date()),
      smsConfigId,
    ]);
    await this.auditLog.record({ action: 'sms-config.updated', origin, clientId, smsConfigId, changed: fields });
  }

  /** Removes the configuration and counts it out of its client's; false when the client has none with this id. */
  async delete(smsConfigId: number, clientId: number, origin: ChangeOrigin): Promise<boolean> {
    return this.sql.transaction(async (statements) => {
      await this.lockOwner(clientId, statements);
      const { affectedRows } = await statements.execute('DELETE FROM sms_config WHERE id = ? AND client_id = ?', [smsConfigId, clientId]);
      if (affectedRows === 0) return false;
      await statements.execute('UPDATE client SET sms_config_count = sms_config_count - 1 WHERE id = ?', [clientId]);
      await this.auditLog.record({ action: 'sms-config.deleted', origin, clientId, smsConfigId });
      return true;
    });
  }

  /** A resolution is audited like a change, though it changes nothing. */
  async recordResolution(smsConfigId: number, clientId: number, origin: ChangeOrigin): Promise<void> {
    await this.auditLog.record({ action: 'sms-config.credentials-resolved', origin, clientId, smsConfigId });
  }

  /** The client's configurations, ordered by id. */
  async listByClient(clientId: number): Promise<SmsConfigDto[]> {
    const rows = await this.sql.query<SmsConfigSummaryRow & { smsConfigId: number }>(LIST_SQL, [clientId]);
    return rows.map((row) => ({ smsConfigId: Number(row.smsConfigId), ...toSmsConfigSummary(row) }));
  }
}

/** Both drivers return booleans as 0/1 and mysql2 returns DECIMAL as strings: the API promises booleans and numbers. */
export function toSmsConfigSummary(row: SmsConfigSummaryRow): SmsConfigSummaryDto {
  return {
    providerName: row.providerName,
    providerUrl: row.providerUrl,
    username: row.username,
    senderId: row.senderId,
    smsType: row.smsType,
    smsApi: row.smsApi,
    balanceUrl: row.balanceUrl,
    balance: Number(row.balance),
    perSmsCost: Number(row.perSmsCost),
    isActive: Boolean(row.isActive),
  };
}
