import { Injectable } from '@nestjs/common';
import { AuditLog } from '../audit/audit.repository';
import { AuditEntry, JUST_INSERTED } from '../audit/audit-entry';
import { ChangeOrigin } from '../auth/actor';
import { SqlExecutor, SqlStatements, SqlValue } from '../database/sql-executor';
import { epochMsOf, isoTimestampOf, sqlTimestamp } from '../database/timestamps';
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

/** A client as get-client shows it, with its id and its configurations ordered by id, and what the key may do. */
export interface ClientWithSmsConfigs {
  clientId: number;
  isActive: boolean;
  /** The key looked up is the client's previous one; it stops working at keyExpiresAt (wall-clock ms). */
  isPreviousKey: boolean;
  keyExpiresAt: number | null;
  /** The digests of all its keys: the current one, and the previous one if any. */
  keyDigests: string[];
  appDescription: string | null;
  appUrl: string;
  preferredSmsGateway: string | null;
  preferredEmailGateway: string | null;
  preferredPushNotificationGateway: string | null;
  isHost: boolean;
  smsConfigs: SmsConfigSummaryDto[];
}

/** One row of the join: the client's columns, and one configuration's (all null for a client without any). */
type ClientWithSmsConfigRow = Omit<
  ClientWithSmsConfigs,
  'isHost' | 'isActive' | 'isPreviousKey' | 'keyExpiresAt' | 'keyDigests' | 'smsConfigs'
> &
  Partial<SmsConfigSummaryRow> & {
    isHost: number | boolean;
    clientIsActive: number | boolean;
    isCurrentKey: number | boolean;
    currentKeyDigest: string;
    previousKeyDigest: string | null;
    previousKeyExpiresAt: Date | string | null;
    smsConfigId: number | null;
  };

/** A client as an admin sees it: never a key, a digest or a provider credential. */
export interface AdminClientView {
  clientId: number;
  appName: string;
  appDescription: string | null;
  appUrl: string;
  preferredSmsGateway: string | null;
  preferredEmailGateway: string | null;
  preferredPushNotificationGateway: string | null;
  isHost: boolean;
  isActive: boolean;
  smsConfigCount: number;
  createdAt: string;
  updatedAt: string;
  secretKeyRotatedAt: string | null;
}

type AdminClientRow = Omit<AdminClientView, 'isHost' | 'isActive' | 'createdAt' | 'updatedAt' | 'secretKeyRotatedAt'> & {
  isHost: number | boolean;
  isActive: number | boolean;
  createdAt: Date | string;
  updatedAt: Date | string | null;
  secretKeyRotatedAt: Date | string | null;
};

/** The fields an admin may change, and their columns. */
export const CHANGEABLE_CLIENT_COLUMNS = {
  appName: 'app_name',
  appDescription: 'app_description',
  appUrl: 'app_url',
  preferredSmsGateway: 'preferred_sms_gateway',
  preferredEmailGateway: 'preferred_email_gateway',
  preferredPushNotificationGateway: 'preferred_push_notification_gateway',
  isHost: 'is_host',
  isActive: 'is_active',
} as const;

export type ClientChanges = Partial<{
  [field in keyof typeof CHANGEABLE_CLIENT_COLUMNS]: field extends 'isHost' | 'isActive' ? boolean : string | null;
}>;

/** The digests of a client's keys: what the cache must forget when the client changes. */
export interface ClientKeys {
  clientId: number;
  isActive: boolean;
  secretKeyDigest: string;
  previousSecretKeyDigest: string | null;
}

const INSERT_SQL = `INSERT INTO client (app_name, app_description, app_url, secret_key_digest, preferred_sms_gateway, is_host, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?)`;

const CLIENT_WITH_SMS_CONFIGS_COLUMNS = `c.id AS clientId, c.app_description AS appDescription, c.app_url AS appUrl,
    c.preferred_sms_gateway AS preferredSmsGateway, c.preferred_email_gateway AS preferredEmailGateway,
    c.preferred_push_notification_gateway AS preferredPushNotificationGateway, c.is_host AS isHost,
    c.is_active AS clientIsActive, c.secret_key_digest AS currentKeyDigest,
    c.previous_secret_key_digest AS previousKeyDigest, c.previous_key_expires_at AS previousKeyExpiresAt,
    s.id AS smsConfigId, ${SMS_CONFIG_SUMMARY_COLUMNS}
  FROM client c LEFT JOIN sms_config s ON s.client_id = c.id`;

/**
 * The hot path's one round trip: the client owning the key (as its current key, or as its previous one) and its
 * configurations, joined, selecting only what the answer shows and what the key may do. Two lookups by a unique index
 * rather than one with OR: MySQL answers each as a constant row, where the OR took an index merge and a temporary table
 * to sort (a miss cost the database 60% more than the baseline's two queries). Rows come unsorted: findWithSmsConfigsByDigest
 * sorts them.
 */
const CLIENT_WITH_SMS_CONFIGS_SQL = `
  SELECT 1 AS isCurrentKey, ${CLIENT_WITH_SMS_CONFIGS_COLUMNS} WHERE c.secret_key_digest = ?
  UNION ALL
  SELECT 0 AS isCurrentKey, ${CLIENT_WITH_SMS_CONFIGS_COLUMNS} WHERE c.previous_secret_key_digest = ?`;

const ADMIN_CLIENT_COLUMNS = `c.id AS clientId, c.app_name AS appName, c.app_description AS appDescription, c.app_url AS appUrl,
  c.preferred_sms_gateway AS preferredSmsGateway, c.preferred_email_gateway AS preferredEmailGateway,
  c.preferred_push_notification_gateway AS preferredPushNotificationGateway, c.is_host AS isHost, c.is_active AS isActive,
  c.sms_config_count AS smsConfigCount, c.created_at AS createdAt, c.updated_at AS updatedAt,
  c.secret_key_rotated_at AS secretKeyRotatedAt`;

const CLIENT_KEYS_SQL = `SELECT id AS clientId, is_active AS isActive, secret_key_digest AS secretKeyDigest,
  previous_secret_key_digest AS previousSecretKeyDigest FROM client WHERE id = ?`;

/** `!` escapes LIKE's wildcards in both dialects. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[!%_]/g, (character) => `!${character}`)}%`;
}

@Injectable()
export class ClientRepository {
  constructor(
    private readonly sql: SqlExecutor,
    private readonly auditLog: AuditLog,
  ) {}

  /** Inserts the client with its audit entry, in one transaction and one round trip; answers its id, committed. */
  async insert(client: NewClient, origin: ChangeOrigin): Promise<number> {
    const values = [
      client.appName,
      client.appDescription,
      client.appUrl,
      client.secretKeyDigest,
      client.preferredSmsGateway,
      client.isHost ? 1 : 0,
      sqlTimestamp(new Date()),
    ];
    const audit = this.auditLog.statement({ action: 'client.created', origin, clientId: JUST_INSERTED });
    const [inserted] = await this.sql.script([{ sql: INSERT_SQL, values }, audit]);
    return inserted.insertId;
  }

  /**
   * The client whose current key, or previous key still in its grace period, has this SHA-256 (hex), with its
   * configurations; null when no client has it.
   */
  async findWithSmsConfigsByDigest(secretKeyDigest: string): Promise<ClientWithSmsConfigs | null> {
    const rows = await this.sql.query<ClientWithSmsConfigRow>(CLIENT_WITH_SMS_CONFIGS_SQL, [secretKeyDigest, secretKeyDigest]);
    if (rows.length === 0) return null;
    const [client] = rows;
    if (rows.length > 1) rows.sort((a, b) => Number(a.smsConfigId) - Number(b.smsConfigId));
    const isPreviousKey = !Number(client.isCurrentKey);
    const keyExpiresAt = isPreviousKey ? epochMsOf(client.previousKeyExpiresAt) : null;
    if (keyExpiresAt !== null && keyExpiresAt <= Date.now()) return null;
    return {
      clientId: Number(client.clientId),
      isActive: Boolean(Number(client.clientIsActive)),
      isPreviousKey,
      keyExpiresAt,
      keyDigests: client.previousKeyDigest === null ? [client.currentKeyDigest] : [client.currentKeyDigest, client.previousKeyDigest],
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

  /** Up to `limit + 1` clients after `afterId` by id, whose name starts with `appNamePrefix` (case-insensitively). */
  async list(afterId: number, limit: number, appNamePrefix?: string): Promise<AdminClientView[]> {
    const values: SqlValue[] = [afterId];
    let filter = '';
    if (appNamePrefix !== undefined) {
      filter = "AND c.app_name LIKE ? ESCAPE '!'";
      values.push(likePrefix(appNamePrefix));
    }
    // limit is a checked integer: written into the text, as MySQL prepares LIMIT placeholders only for some types.
    const rows = await this.sql.query<AdminClientRow>(
      `SELECT ${ADMIN_CLIENT_COLUMNS} FROM client c WHERE c.id > ? ${filter} ORDER BY c.id LIMIT ${Math.trunc(limit) + 1}`,
      values,
    );
    return rows.map(toAdminClientView);
  }

  async findById(clientId: number, statements: SqlStatements = this.sql): Promise<AdminClientView | null> {
    const [row] = await statements.query<AdminClientRow>(`SELECT ${ADMIN_CLIENT_COLUMNS} FROM client c WHERE c.id = ?`, [clientId]);
    return row === undefined ? null : toAdminClientView(row);
  }

  /** The client's key digests, its row locked until the transaction ends (MySQL; SQLite transactions take turns anyway). */
  async lockKeys(clientId: number, statements: SqlStatements): Promise<ClientKeys | null> {
    const lock = this.sql.dialect === 'mysql' ? ' FOR UPDATE' : '';
    const [row] = await statements.query<ClientKeys>(CLIENT_KEYS_SQL + lock, [clientId]);
    return row === undefined ? null : { ...row, clientId: Number(row.clientId), isActive: Boolean(Number(row.isActive)) };
  }

  /** Applies the changes (fields that differ from the stored ones, already worked out) with the audit entries given. */
  async update(clientId: number, changes: ClientChanges, audit: AuditEntry[], statements: SqlStatements): Promise<void> {
    const fields = Object.keys(changes) as Array<keyof ClientChanges>;
    const assignments = fields.map((field) => `${CHANGEABLE_CLIENT_COLUMNS[field]} = ?`);
    const values = fields.map((field) => {
      const value = changes[field]!;
      return typeof value === 'boolean' ? (value ? 1 : 0) : value;
    });
    await statements.execute(`UPDATE client SET ${[...assignments, 'updated_at = ?'].join(', ')} WHERE id = ?`, [
      ...values,
      sqlTimestamp(new Date()),
      clientId,
    ]);
    for (const entry of audit) await this.auditLog.record(entry);
  }

  /** Removes the client and its configurations, with the audit entry. */
  async delete(clientId: number, origin: ChangeOrigin, statements: SqlStatements): Promise<void> {
    await statements.execute('DELETE FROM sms_config WHERE client_id = ?', [clientId]);
    await statements.execute('DELETE FROM client WHERE id = ?', [clientId]);
    await this.auditLog.record({ action: 'client.deleted', origin, clientId });
  }

  /**
   * Makes `newDigest` the current key; the current one becomes the previous key until `previousKeyExpiresAt` (null: it
   * is revoked at once). An earlier previous key ends here.
   */
  async rotateKey(
    keys: ClientKeys,
    newDigest: string,
    previousKeyExpiresAt: Date | null,
    origin: ChangeOrigin,
    statements: SqlStatements,
  ): Promise<Date> {
    const now = new Date();
    await statements.execute(
      `UPDATE client SET secret_key_digest = ?, previous_secret_key_digest = ?, previous_key_expires_at = ?,
         secret_key_rotated_at = ?, updated_at = ? WHERE id = ?`,
      [
        newDigest,
        previousKeyExpiresAt === null ? null : keys.secretKeyDigest,
        previousKeyExpiresAt === null ? null : sqlTimestamp(previousKeyExpiresAt),
        sqlTimestamp(now),
        sqlTimestamp(now),
        keys.clientId,
      ],
    );
    await this.auditLog.record({ action: 'client.secret-key.rotated', origin, clientId: keys.clientId, changed: ['secretKey'] });
    return now;
  }
}

function toAdminClientView(row: AdminClientRow): AdminClientView {
  const createdAt = isoTimestampOf(row.createdAt)!;
  return {
    clientId: Number(row.clientId),
    appName: row.appName,
    appDescription: row.appDescription,
    appUrl: row.appUrl,
    preferredSmsGateway: row.preferredSmsGateway,
    preferredEmailGateway: row.preferredEmailGateway,
    preferredPushNotificationGateway: row.preferredPushNotificationGateway,
    isHost: Boolean(Number(row.isHost)),
    isActive: Boolean(Number(row.isActive)),
    smsConfigCount: Number(row.smsConfigCount),
    createdAt,
    updatedAt: isoTimestampOf(row.updatedAt) ?? createdAt,
    secretKeyRotatedAt: isoTimestampOf(row.secretKeyRotatedAt),
  };
}
