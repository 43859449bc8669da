import { ConflictException, ForbiddenException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ClientService } from '../client/client.service';
import { SecretSealer } from '../common/crypto/secret-sealer';
import { AuthenticatedClient } from '../common/guards/secret-key.guard';
import { PreparedStatements } from '../database/prepared-statements';
import { AddSmsConfigDto } from './dto/add-sms-config.dto';
import { SmsConfigDto, VerifyApiKeyDto } from './dto/sms-config-response.dto';
import { SMS_CONFIG_SUMMARY_COLUMNS, SmsConfigRow, toSmsConfig } from './sms-config.mapper';
import { SmsConfigEntity } from './sms-config.entity';

export const MAX_SMS_CONFIGS_PER_CLIENT = 100;

type NewSmsConfig = Omit<SmsConfigEntity, 'id' | 'client' | 'createdAt'>;

const LIST_SQL = `SELECT s.id AS smsConfigId, ${SMS_CONFIG_SUMMARY_COLUMNS} FROM sms_config s WHERE s.client_id = ? ORDER BY s.id`;

const COLUMNS = [
  'client_id',
  'provider_name',
  'provider_url',
  'username',
  'password_sealed',
  'api_key_sealed',
  'sender_id',
  'sms_type',
  'sms_api',
  'balance_url',
  'balance',
  'per_sms_cost',
  'is_active',
];
/** MySQL: locks the client row, counts, inserts and commits in one round trip (migration 1795327283819). */
const ADD_WITHIN_LIMIT_SQL = `CALL sms_config_add_within_limit(${COLUMNS.map(() => '?').join(', ')}, ?)`;
/** SQLite: one conditional INSERT is atomic by itself. */
const INSERT_WITHIN_LIMIT_SQL = `INSERT INTO sms_config (${COLUMNS.join(', ')}) SELECT ${COLUMNS.map(() => '?').join(', ')}
  WHERE (SELECT COUNT(*) FROM sms_config WHERE client_id = ?) < ?`;

@Injectable()
export class SmsConfigService {
  private readonly sql: PreparedStatements;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sealer: SecretSealer,
    private readonly clients: ClientService,
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
    this.clients.invalidate(owner.secretKeyDigest);
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
    if (this.sql.isMysql) {
      const [{ smsConfigId }] = await this.sql.call<{ smsConfigId: number | string | null }>(ADD_WITHIN_LIMIT_SQL, [
        ...values,
        MAX_SMS_CONFIGS_PER_CLIENT,
      ]);
      if (smsConfigId === null) throw limitReached();
      return Number(smsConfigId);
    }
    // SQLite: TypeORM shares one connection between all callers there, so an explicit transaction would swallow
    // other requests' writes.
    const result = await this.dataSource
      .createQueryRunner()
      .query(INSERT_WITHIN_LIMIT_SQL, [...values, smsConfig.clientId, MAX_SMS_CONFIGS_PER_CLIENT], true);
    if (result.affected === 0) throw limitReached();
    return Number(result.raw);
  }
}

function assertOwnClientId(ownerId: number, requestedClientId: number | undefined): void {
  if (requestedClientId !== undefined && requestedClientId !== ownerId) {
    throw new ForbiddenException('clientId does not belong to the client of this secretKey');
  }
}

function limitReached(): ConflictException {
  return new ConflictException(`A client can have at most ${MAX_SMS_CONFIGS_PER_CLIENT} SMS configurations`);
}
