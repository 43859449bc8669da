import { ConflictException, ForbiddenException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';
import { ClientCacheInvalidation } from '../client-cache/client-cache-invalidator';
import { SecretSealer } from '../common/crypto/secret-sealer';
import { AuthenticatedClient } from '../auth/client-lookup';
import { PreparedStatements } from '../database/prepared-statements';
import { AddSmsConfigDto } from './dto/add-sms-config.dto';
import { SmsConfigDto, VerifyApiKeyDto } from './dto/sms-config-response.dto';
import { SMS_CONFIG_SUMMARY_COLUMNS, SmsConfigRow, toSmsConfig } from './sms-config.mapper';
import { SmsConfigEntity } from './sms-config.entity';

type NewSmsConfig = Omit<SmsConfigEntity, 'id' | 'client' | 'createdAt'>;

const LIST_SQL = `SELECT s.id AS smsConfigId, ${SMS_CONFIG_SUMMARY_COLUMNS} FROM sms_config s WHERE s.client_id = ? ORDER BY s.id`;

/**
 * The schema refuses a client's configuration past the limit (trigger sms_config_within_limit, migration
 * 1795400000000), in the insert's own statement. A new limit needs a new migration.
 */
export const MAX_SMS_CONFIGS_PER_CLIENT = 100;

const INSERT_SQL = `INSERT INTO sms_config (client_id, provider_name, provider_url, username, password_sealed, api_key_sealed,
    sender_id, sms_type, sms_api, balance_url, balance, per_sms_cost, is_active)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** What each driver says when a trigger refuses a row; the limit's trigger is the only one that does. */
const TRIGGER_REFUSAL_CODES = new Set(['ER_SIGNAL_EXCEPTION', 'SQLITE_CONSTRAINT_TRIGGER']);

@Injectable()
export class SmsConfigService {
  private readonly sql: PreparedStatements;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly sealer: SecretSealer,
    private readonly clientCache: ClientCacheInvalidation,
  ) {
    this.sql = new PreparedStatements(dataSource);
  }

  async add(owner: AuthenticatedClient, request: AddSmsConfigDto): Promise<VerifyApiKeyDto> {
    const ownerId = owner.id;
    assertOwnClientId(ownerId, request.clientId);
    const smsConfig: NewSmsConfig = {
      clientId: ownerId,
      providerName: request.providerName,
      providerUrl: request.providerUrl ?? null,
      username: request.username ?? null,
      passwordSealed: request.password === undefined ? null : this.sealer.seal(request.password),
      apiKeySealed: request.apiKey === undefined ? null : this.sealer.seal(request.apiKey),
      senderId: request.senderId ?? null,
      smsType: request.smsType ?? null,
      smsApi: request.smsApi,
      balanceUrl: request.balanceUrl ?? null,
      balance: request.balance ?? 0,
      perSmsCost: request.perSmsCost ?? 0,
      isActive: request.isActive ?? true,
    };
    const smsConfigId = await this.insertWithinLimit(smsConfig);
    // The client's get-client answer now lists one more configuration.
    this.clientCache.invalidate(owner.secretKeyDigest);
    const verifyApiKey = this.sealer.sealVerifyApiKey({
      smsConfigId,
      clientId: ownerId,
      apiKeyFingerprint: this.sealer.fingerprint(request.apiKey ?? ''),
    });
    return { verifyApiKey };
  }

  async listForClient(ownerId: number, requestedClientId?: number): Promise<SmsConfigDto[]> {
    assertOwnClientId(ownerId, requestedClientId);
    const rows = await this.sql.query<SmsConfigRow & { smsConfigId: number }>(LIST_SQL, [ownerId]);
    return rows.map(toSmsConfig);
  }

  /** Inserts unless the client already has the maximum; committed before the caller is answered. */
  private async insertWithinLimit(smsConfig: NewSmsConfig): Promise<number> {
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
    try {
      return await this.sql.insert(INSERT_SQL, values);
    } catch (error) {
      throw isTriggerRefusal(error) ? limitReached() : error;
    }
  }
}

function assertOwnClientId(ownerId: number, requestedClientId: number | undefined): void {
  if (requestedClientId !== undefined && requestedClientId !== ownerId) {
    throw new ForbiddenException('clientId does not belong to the client of this secretKey');
  }
}

function isTriggerRefusal(error: unknown): boolean {
  const driverError = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
  return TRIGGER_REFUSAL_CODES.has((driverError as { code?: string } | null)?.code ?? '');
}

function limitReached(): ConflictException {
  return new ConflictException(`A client can have at most ${MAX_SMS_CONFIGS_PER_CLIENT} SMS configurations`);
}
