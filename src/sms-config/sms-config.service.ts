import { ForbiddenException, Injectable } from '@nestjs/common';
import { AuthenticatedClient } from '../auth/client-lookup';
import { ClientCacheInvalidation } from '../client-cache/client-cache-invalidator';
import { SecretSealer } from '../crypto/secret-sealer';
import { AddSmsConfigDto } from './dto/add-sms-config.dto';
import { SmsConfigDto, VerifyApiKeyDto } from './dto/sms-config-response.dto';
import { apiKeySealContext, passwordSealContext } from './sms-config-seal-context';
import { SmsConfigRepository } from './sms-config.repository';

@Injectable()
export class SmsConfigService {
  constructor(
    private readonly smsConfigs: SmsConfigRepository,
    private readonly sealer: SecretSealer,
    private readonly clientCache: ClientCacheInvalidation,
  ) {}

  /** Stores the configuration for the key's client, its secrets sealed; committed before it is answered. */
  async add(owner: AuthenticatedClient, request: AddSmsConfigDto): Promise<VerifyApiKeyDto> {
    assertOwnClientId(owner.id, request.clientId);
    const smsConfigId = await this.smsConfigs.add({
      clientId: owner.id,
      providerName: request.providerName,
      providerUrl: request.providerUrl ?? null,
      username: request.username ?? null,
      passwordSealed: request.password === undefined ? null : this.sealer.seal(request.password, passwordSealContext(owner.id)),
      apiKeySealed: request.apiKey === undefined ? null : this.sealer.seal(request.apiKey, apiKeySealContext(owner.id)),
      senderId: request.senderId ?? null,
      smsType: request.smsType ?? null,
      smsApi: request.smsApi,
      balanceUrl: request.balanceUrl ?? null,
      balance: request.balance ?? 0,
      perSmsCost: request.perSmsCost ?? 0,
      isActive: request.isActive ?? true,
    });
    // The client's get-client answer now lists one more configuration.
    this.clientCache.invalidate(owner.secretKeyDigest);
    const verifyApiKey = this.sealer.sealVerifyApiKey({
      smsConfigId,
      clientId: owner.id,
      apiKeyFingerprint: this.sealer.fingerprint(request.apiKey ?? ''),
    });
    return { verifyApiKey };
  }

  async listForClient(ownerId: number, requestedClientId?: number): Promise<SmsConfigDto[]> {
    assertOwnClientId(ownerId, requestedClientId);
    return this.smsConfigs.listByClient(ownerId);
  }
}

/** The key names the client; a clientId in the body may only repeat it. */
function assertOwnClientId(ownerId: number, requestedClientId: number | undefined): void {
  if (requestedClientId !== undefined && requestedClientId !== ownerId) {
    throw new ForbiddenException('clientId does not belong to the client of this secretKey');
  }
}
