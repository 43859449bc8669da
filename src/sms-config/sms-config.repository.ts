import { Injectable } from '@nestjs/common';
import { retryDeadlockVictims } from '../database/deadlock-retry';
import { SqlDialect, SqlExecutor } from '../database/sql-executor';
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

const INSERT_COLUMNS = `client_id, provider_name, provider_url, username, password_sealed, api_key_sealed, sender_id, sms_type,
  sms_api, balance_url, balance, per_sms_cost, is_active`;
const INSERT_VALUES = '?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?';

/** Inserts the configuration only when the UPDATE just before it counted it in (in the same script). */
const INSERT_IF_COUNTED_SQL: Record<SqlDialect, string> = {
  mysql: `INSERT INTO sms_config (${INSERT_COLUMNS}) SELECT ${INSERT_VALUES} FROM DUAL WHERE ROW_COUNT() = 1`,
  sqlite: `INSERT INTO sms_config (${INSERT_COLUMNS}) SELECT ${INSERT_VALUES} WHERE changes() = 1`,
};

/** Counts the configuration in, when the client has room: the UPDATE locks the client's row until the commit. */
const COUNT_IN_SQL = 'UPDATE client SET sms_config_count = sms_config_count + 1 WHERE id = ? AND sms_config_count < ?';

@Injectable()
export class SmsConfigRepository {
  constructor(private readonly sql: SqlExecutor) {}

  /**
   * Inserts the configuration and answers its id, committed; past the limit a DomainError (answered 409). One
   * transaction in one round trip: the client's counter goes up only while it is under the limit, which locks the
   * client's row, and the row is inserted only if it did; adds for one client are counted one after another, adds for
   * different clients do not wait on each other. A transaction chosen as a deadlock victim is run again whole.
   */
  async add(smsConfig: NewSmsConfig): Promise<number> {
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
    ];
    const [countedIn, inserted] = await retryDeadlockVictims(() =>
      this.sql.script([
        { sql: COUNT_IN_SQL, values: [smsConfig.clientId, MAX_SMS_CONFIGS_PER_CLIENT] },
        { sql: INSERT_IF_COUNTED_SQL[this.sql.dialect], values },
      ]),
    );
    if (countedIn.affectedRows === 0 || inserted.affectedRows === 0) throw smsConfigLimitReached();
    return inserted.insertId;
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
