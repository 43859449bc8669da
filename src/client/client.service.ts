import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { generateSecretKey, isWellFormedSecretKey, sha256Hex } from '../common/crypto/secret-key';
import { SMS_CONFIG_SUMMARY_COLUMNS, SmsConfigRow, toSmsConfigSummary } from '../sms-config/sms-config.mapper';
import { ClientEntity } from './client.entity';
import { AddClientDto } from './dto/add-client.dto';
import { ClientDto } from './dto/client-response.dto';

interface ClientWithSmsConfigRow extends Partial<SmsConfigRow> {
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
  SELECT c.app_description AS appDescription, c.app_url AS appUrl, c.preferred_sms_gateway AS preferredSmsGateway,
    c.preferred_email_gateway AS preferredEmailGateway,
    c.preferred_push_notification_gateway AS preferredPushNotificationGateway, c.is_host AS isHost,
    s.id AS smsConfigId, ${SMS_CONFIG_SUMMARY_COLUMNS}
  FROM client c LEFT JOIN sms_config s ON s.client_id = c.id
  WHERE c.secret_key_digest = ?
  ORDER BY s.id`;

@Injectable()
export class ClientService {
  constructor(
    @InjectRepository(ClientEntity) private readonly clients: Repository<ClientEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async create(request: AddClientDto): Promise<ClientDto> {
    const secretKey = generateSecretKey();
    const client = {
      appName: request.appName,
      appDescription: request.appDescription ?? null,
      appUrl: request.appUrl,
      secretKeyDigest: sha256Hex(secretKey),
      preferredSmsGateway: request.preferredSmsGateway ?? null,
      preferredEmailGateway: null,
      preferredPushNotificationGateway: null,
      isHost: request.isHost,
    };
    await this.clients.insert(client);
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

  /** The client that owns this key, with its SMS configurations; null when no client has it. */
  async findBySecretKey(secretKey: string): Promise<ClientDto | null> {
    if (!isWellFormedSecretKey(secretKey)) return null;
    const rows = (await this.dataSource.query(CLIENT_WITH_SMS_CONFIG_SQL, [sha256Hex(secretKey)])) as ClientWithSmsConfigRow[];
    if (rows.length === 0) return null;
    const [client] = rows;
    const smsConfig = client.smsConfigId === null ? null : rows.map((row) => toSmsConfigSummary(row as SmsConfigRow));
    return {
      appDescription: client.appDescription,
      appUrl: client.appUrl,
      secretKey,
      preferredSmsGateway: client.preferredSmsGateway,
      preferredEmailGateway: client.preferredEmailGateway,
      preferredPushNotificationGateway: client.preferredPushNotificationGateway,
      isHost: Boolean(client.isHost),
      smsConfig,
    };
  }

  async findIdBySecretKey(secretKey: string): Promise<number | null> {
    if (!isWellFormedSecretKey(secretKey)) return null;
    const client = await this.clients.findOne({ select: { id: true }, where: { secretKeyDigest: sha256Hex(secretKey) } });
    return client?.id ?? null;
  }
}
