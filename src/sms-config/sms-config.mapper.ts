import { SmsConfigDto, SmsConfigSummaryDto } from './dto/sms-config-response.dto';

/** Columns of sms_config as the raw queries select them (aliased to the API's names). */
export const SMS_CONFIG_SUMMARY_COLUMNS = `s.provider_name AS providerName, s.provider_url AS providerUrl, s.username AS username,
  s.sender_id AS senderId, s.sms_type AS smsType, s.sms_api AS smsApi, s.balance_url AS balanceUrl,
  s.balance AS balance, s.per_sms_cost AS perSmsCost, s.is_active AS isActive`;

export interface SmsConfigRow {
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

/** Both drivers return booleans as 0/1 and mysql2 returns DECIMAL as strings: the API promises booleans and numbers. */
export function toSmsConfigSummary(row: SmsConfigRow): SmsConfigSummaryDto {
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

export function toSmsConfig(row: SmsConfigRow & { smsConfigId: number }): SmsConfigDto {
  return { smsConfigId: Number(row.smsConfigId), ...toSmsConfigSummary(row) };
}
