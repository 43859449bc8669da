import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuthenticatedClient, ClientLookup } from '../auth/client-lookup';
import { sha256Hex } from '../auth/digest';
import { generateSecretKey, isWellFormedSecretKey } from '../auth/secret-key';
import { PreparedStatements } from '../database/prepared-statements';
import { SMS_CONFIG_SUMMARY_COLUMNS, SmsConfigRow, toSmsConfigSummary } from '../sms-config/sms-config.mapper';
import { CachedClient, ClientCache, answerOf } from '../client-cache/client-cache';
import { clientCacheHits, clientCacheMisses } from '../client-cache/client-cache.metrics';
import { AddClientDto } from './dto/add-client.dto';
import { ClientDto } from './dto/client-response.dto';

interface ClientWithSmsConfigRow extends Partial<SmsConfigRow> {
  clientId: number;
  appDescription: string | null;
  appUrl: string;
  preferredSmsGateway: string | null;
  preferredEmailGateway: string | null;
  preferredPushNotificationGateway: string | null;
  isHost: number | boolean;
  smsConfigId: number | null;
}

/** One round trip: the client and its configurations, joined, selecting only what the answer shows. */
const CLIENT_WITH_SMS_CONFIG_SQL = `
  SELECT c.id AS clientId, c.app_description AS appDescription, c.app_url AS appUrl,
    c.preferred_sms_gateway AS preferredSmsGateway, c.preferred_email_gateway AS preferredEmailGateway,
    c.preferred_push_notification_gateway AS preferredPushNotificationGateway, c.is_host AS isHost,
    s.id AS smsConfigId, ${SMS_CONFIG_SUMMARY_COLUMNS}
  FROM client c LEFT JOIN sms_config s ON s.client_id = c.id
  WHERE c.secret_key_digest = ?
  ORDER BY s.id`;

@Injectable()
export class ClientService implements ClientLookup {
  private readonly sql: PreparedStatements;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly cache: ClientCache,
  ) {
    this.sql = new PreparedStatements(dataSource);
  }

  async create(request: AddClientDto): Promise<ClientDto> {
    const secretKey = generateSecretKey();
    const secretKeyDigest = sha256Hex(secretKey);
    const client = {
      appName: request.appName,
      appDescription: request.appDescription ?? null,
      appUrl: request.appUrl,
      preferredSmsGateway: request.preferredSmsGateway ?? null,
      isHost: request.isHost,
    };
    await this.sql.query(
      `INSERT INTO client (app_name, app_description, app_url, secret_key_digest, preferred_sms_gateway, is_host)
       VALUES (?, ?, ?, ?, ?, ?)`,
      [client.appName, client.appDescription, client.appUrl, secretKeyDigest, client.preferredSmsGateway, client.isHost ? 1 : 0],
    );
    // A key nobody could have asked for before; dropped all the same should it be remembered as unknown.
    this.cache.drop(secretKeyDigest);
    return {
      appDescription: client.appDescription,
      appUrl: client.appUrl,
      secretKey,
      preferredSmsGateway: client.preferredSmsGateway,
      preferredEmailGateway: null,
      preferredPushNotificationGateway: null,
      isHost: client.isHost,
      smsConfig: null,
    };
  }

  /** The serialized get-client answer for this key (the key echoed), or null when no client has it. */
  async getAnswer(secretKey: string): Promise<string | null> {
    const client = await this.lookUp(secretKey);
    return client === null ? null : answerOf(client, secretKey);
  }

  /** The client owning this key, as the SMS routes' guard needs it; null when no client has it. */
  async authenticate(secretKey: string): Promise<AuthenticatedClient | null> {
    if (!isWellFormedSecretKey(secretKey)) return null;
    const secretKeyDigest = sha256Hex(secretKey);
    // The owner of a key never changes: known even right after an add dropped the client's answer.
    const knownId = this.cache.lookupId(secretKeyDigest);
    if (knownId !== undefined) return { id: knownId, secretKeyDigest };
    const client = await this.lookUp(secretKey);
    return client === null ? null : { id: client.clientId, secretKeyDigest };
  }

  private async lookUp(secretKey: string): Promise<CachedClient | null> {
    if (!isWellFormedSecretKey(secretKey)) return null;
    const digest = sha256Hex(secretKey);
    const cached = this.cache.lookup(digest);
    if (cached !== undefined) {
      clientCacheHits.inc({ kind: cached.found ? 'found' : 'unknown' });
      return cached.found ? cached.client : null;
    }
    clientCacheMisses.inc();
    const token = this.cache.readToken();
    const rows = await this.sql.query<ClientWithSmsConfigRow>(CLIENT_WITH_SMS_CONFIG_SQL, [digest]);
    const client = rows.length === 0 ? null : toCachedClient(rows);
    this.cache.store(digest, client, token);
    return client;
  }
}

/** The answer serialized once, split around the echoed key: `{"status":200,"results":{..."secretKey":"` + key + `"...}}`. */
function toCachedClient(rows: ClientWithSmsConfigRow[]): CachedClient {
  const [client] = rows;
  const before: Pick<ClientDto, 'appDescription' | 'appUrl'> = { appDescription: client.appDescription, appUrl: client.appUrl };
  const after: Omit<ClientDto, 'appDescription' | 'appUrl' | 'secretKey'> = {
    preferredSmsGateway: client.preferredSmsGateway,
    preferredEmailGateway: client.preferredEmailGateway,
    preferredPushNotificationGateway: client.preferredPushNotificationGateway,
    isHost: Boolean(client.isHost),
    smsConfig: client.smsConfigId === null ? null : rows.map((row) => toSmsConfigSummary(row as SmsConfigRow)),
  };
  return {
    clientId: Number(client.clientId),
    prefix: `{"status":200,"results":${JSON.stringify(before).slice(0, -1)},"secretKey":"`,
    suffix: `",${JSON.stringify(after).slice(1)}}`,
  };
}
