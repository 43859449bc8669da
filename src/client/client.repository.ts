import { Injectable } from '@nestjs/common';
import { SqlExecutor } from '../database/sql-executor';
import { SMS_CONFIG_SUMMARY_COLUMNS, SmsConfigSummaryRow, toSmsConfigSummary } from '../sms-config/sms-config.repository';
import { SmsConfigSummaryDto } from '../sms-config/dto/sms-config-response.dto';

/** A client to insert: its key only as the key's SHA-256, never the key itself. */
export interface NewClient {
  appName: string;
  appDescription: string | null;
  appUrl: string;
  secretKeyDigest: string;
  preferredSmsGateway: string | null;
  isHost: boolean;
}

/** A client as get-client shows it, with its id and its configurations ordered by id. */
export interface ClientWithSmsConfigs {
  clientId: number;
  appDescription: string | null;
  appUrl: string;
  preferredSmsGateway: string | null;
  preferredEmailGateway: string | null;
  preferredPushNotificationGateway: string | null;
  isHost: boolean;
  smsConfigs: SmsConfigSummaryDto[];
}

/** One row of the join: the client's columns, and one configuration's (all null for a client without any). */
type ClientWithSmsConfigRow = Omit<ClientWithSmsConfigs, 'isHost' | 'smsConfigs'> &
  Partial<SmsConfigSummaryRow> & { isHost: number | boolean; smsConfigId: number | null };

const INSERT_SQL = `INSERT INTO client (app_name, app_description, app_url, secret_key_digest, preferred_sms_gateway, is_host)
  VALUES (?, ?, ?, ?, ?, ?)`;

/** The hot path's one round trip: the client and its configurations, joined, selecting only what the answer shows. */
const CLIENT_WITH_SMS_CONFIGS_SQL = `
  SELECT c.id AS clientId, c.app_description AS appDescription, c.app_url AS appUrl,
    c.preferred_sms_gateway AS preferredSmsGateway, c.preferred_email_gateway AS preferredEmailGateway,
    c.preferred_push_notification_gateway AS preferredPushNotificationGateway, c.is_host AS isHost,
    s.id AS smsConfigId, ${SMS_CONFIG_SUMMARY_COLUMNS}
  FROM client c LEFT JOIN sms_config s ON s.client_id = c.id
  WHERE c.secret_key_digest = ?
  ORDER BY s.id`;

@Injectable()
export class ClientRepository {
  constructor(private readonly sql: SqlExecutor) {}

  /** Inserts the client and answers its id, committed. */
  async insert(client: NewClient): Promise<number> {
    const { insertId } = await this.sql.execute(INSERT_SQL, [
      client.appName,
      client.appDescription,
      client.appUrl,
      client.secretKeyDigest,
      client.preferredSmsGateway,
      client.isHost ? 1 : 0,
    ]);
    return insertId;
  }

  /** The client whose secret key has this SHA-256 (hex), with its configurations; null when no client has it. */
  async findWithSmsConfigsByDigest(secretKeyDigest: string): Promise<ClientWithSmsConfigs | null> {
    const rows = await this.sql.query<ClientWithSmsConfigRow>(CLIENT_WITH_SMS_CONFIGS_SQL, [secretKeyDigest]);
    if (rows.length === 0) return null;
    const [client] = rows;
    return {
      clientId: Number(client.clientId),
      appDescription: client.appDescription,
      appUrl: client.appUrl,
      preferredSmsGateway: client.preferredSmsGateway,
      preferredEmailGateway: client.preferredEmailGateway,
      preferredPushNotificationGateway: client.preferredPushNotificationGateway,
      isHost: Boolean(client.isHost),
      // A client without configurations is one row whose sms_config columns are all null.
      smsConfigs: client.smsConfigId === null ? [] : rows.map((row) => toSmsConfigSummary(row as SmsConfigSummaryRow)),
    };
  }
}
