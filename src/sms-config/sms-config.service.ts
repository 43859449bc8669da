import { ConflictException, ForbiddenException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SecretSealer } from '../common/crypto/secret-sealer';
import { AddSmsConfigDto } from './dto/add-sms-config.dto';
import { SmsConfigDto, VerifyApiKeyDto } from './dto/sms-config-response.dto';
import { SMS_CONFIG_SUMMARY_COLUMNS, SmsConfigRow, toSmsConfig } from './sms-config.mapper';
import { SmsConfigEntity } from './sms-config.entity';

export const MAX_SMS_CONFIGS_PER_CLIENT = 100;

type NewSmsConfig = Omit<SmsConfigEntity, 'id' | 'client' | 'createdAt'>;

const LIST_SQL = `SELECT s.id AS smsConfigId, ${SMS_CONFIG_SUMMARY_COLUMNS} FROM sms_config s WHERE s.client_id = ? ORDER BY s.id`;

@Injectable()
export class SmsConfigService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sealer: SecretSealer,
  ) {}

  async add(ownerId: number, request: AddSmsConfigDto): Promise<VerifyApiKeyDto> {
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
    const verifyApiKey = this.sealer.sealVerifyApiKey({
      smsConfigId,
      clientId: ownerId,
      apiKeyFingerprint: this.sealer.fingerprint(request.apiKey ?? ''),
    });
    return { verifyApiKey };
  }

  async listForClient(ownerId: number, requestedClientId?: number): Promise<SmsConfigDto[]> {
    assertOwnClientId(ownerId, requestedClientId);
    const rows = (await this.dataSource.query(LIST_SQL, [ownerId])) as Array<SmsConfigRow & { smsConfigId: number }>;
    return rows.map(toSmsConfig);
  }

  /** Inserts unless the client already has the maximum; committed before the caller is answered. */
  private insertWithinLimit(smsConfig: NewSmsConfig): Promise<number> {
    return this.dataSource.options.type === 'mysql' ? this.insertWithinLimitLocked(smsConfig) : this.insertWithinLimitAtomically(smsConfig);
  }

  /** MySQL: the client row is locked, so concurrent adds for one client are counted one after another. */
  private insertWithinLimitLocked(smsConfig: NewSmsConfig): Promise<number> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      await manager.query('SELECT id FROM client WHERE id = ? FOR UPDATE', [smsConfig.clientId]);
      const count = await manager.count(SmsConfigEntity, { where: { clientId: smsConfig.clientId } });
      if (count >= MAX_SMS_CONFIGS_PER_CLIENT) throw limitReached();
      const { identifiers } = await manager.insert(SmsConfigEntity, smsConfig);
      return Number(identifiers[0].id);
    });
  }

  /**
   * SQLite: TypeORM shares one connection between all callers there, so an explicit transaction would swallow
   * other requests' writes; one conditional INSERT is atomic by itself.
   */
  private async insertWithinLimitAtomically(smsConfig: NewSmsConfig): Promise<number> {
    const columns = {
      client_id: smsConfig.clientId,
      provider_name: smsConfig.providerName,
      provider_url: smsConfig.providerUrl,
      username: smsConfig.username,
      password_sealed: smsConfig.passwordSealed,
      api_key_sealed: smsConfig.apiKeySealed,
      sender_id: smsConfig.senderId,
      sms_type: smsConfig.smsType,
      sms_api: smsConfig.smsApi,
      balance_url: smsConfig.balanceUrl,
      balance: smsConfig.balance,
      per_sms_cost: smsConfig.perSmsCost,
      is_active: smsConfig.isActive ? 1 : 0,
    };
    const names = Object.keys(columns);
    const sql = `INSERT INTO sms_config (${names.join(', ')}) SELECT ${names.map(() => '?').join(', ')}
      WHERE (SELECT COUNT(*) FROM sms_config WHERE client_id = ?) < ?`;
    const result = await this.dataSource
      .createQueryRunner()
      .query(sql, [...Object.values(columns), smsConfig.clientId, MAX_SMS_CONFIGS_PER_CLIENT], true);
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
