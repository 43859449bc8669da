import { BadRequestException, ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { ChangeOrigin } from '../auth/actor';
import { inFieldOrder } from '../common/answer-fields';
import { AuthenticatedClient } from '../auth/client-lookup';
import { ClientDisabledException } from '../auth/credential-refusals';
import { ClientCacheInvalidation } from '../client-cache/client-cache-invalidator';
import { SecretSealer, UnsealError } from '../crypto/secret-sealer';
import { SqlValue, Transactions } from '../database/transactions';
import { ProviderHostApproval } from '../provider-host/provider-host-approval';
import { AddSmsConfigDto } from './dto/add-sms-config.dto';
import {
  DeletedSmsConfigDto,
  RESOLVED_SMS_CONFIG_FIELDS,
  ResolvedSmsConfigDto,
  UPDATED_SMS_CONFIG_FIELDS,
  UpdateSmsConfigDto,
  UpdatedSmsConfigDto,
} from './dto/sms-config-lifecycle.dto';
import {
  SMS_CONFIG_VIEW_FIELDS,
  SmsConfigDto,
  SmsConfigViewDto,
  StoredSmsConfigView,
  VerifyApiKeyDto,
} from './dto/sms-config-response.dto';
import { RequestColumn } from './column-roles';
import { SmsConfigBudgetRepository } from './sms-config-budget.repository';
import { SMS_CONFIG_REQUEST_COLUMNS, SmsConfigChanges } from './sms-config-fields';
import { SEAL_CONTEXTS, passwordSealContext } from './sms-config-seal-context';
import { SealedSecrets, SmsConfigRepository } from './sms-config.repository';
import { VerifyApiKeyIssuer } from './verify-api-key-issuer';
import { CREDENTIAL_BOUND_FIELDS, DESTINATION_FIELDS, tokenRefusal } from './verify-api-key-validity';

export class SmsConfigNotFoundException extends NotFoundException {
  constructor() {
    super('SMS configuration not found');
  }
}

const CHANGEABLE_FIELDS = [...SMS_CONFIG_REQUEST_COLUMNS.map(({ field }) => field), 'destinationPrices'];

@Injectable()
export class SmsConfigService {
  constructor(
    private readonly smsConfigs: SmsConfigRepository,
    private readonly budget: SmsConfigBudgetRepository,
    private readonly sealer: SecretSealer,
    private readonly clientCache: ClientCacheInvalidation,
    private readonly transactions: Transactions,
    private readonly tokens: VerifyApiKeyIssuer,
    private readonly approval: ProviderHostApproval,
  ) {}

  async add(owner: AuthenticatedClient, request: AddSmsConfigDto, origin: ChangeOrigin): Promise<VerifyApiKeyDto> {
    assertOwnClientId(owner.id, request.clientId);
    const smsConfigId = await this.smsConfigs.add(
      { ...this.storedFrom(request, sentColumns(request), 'property', owner.id), clientId: owner.id },
      origin,
      request.destinationPrices ?? [],
      this.clientCache.changeStatements({ keys: owner.keyDigests, smsConfig: 'row' }),
    );
    return { verifyApiKey: this.verifyApiKeyFor(owner, { smsConfigId, credentialVersion: 0 }, request.apiKey ?? null) };
  }

  async listForClient(ownerId: number, requestedClientId?: number): Promise<SmsConfigDto[]> {
    assertOwnClientId(ownerId, requestedClientId);
    return this.smsConfigs.listByClient(ownerId);
  }

  async get(owner: AuthenticatedClient, smsConfigId: number): Promise<SmsConfigViewDto> {
    return this.withApproval((await this.smsConfigs.findOne(smsConfigId, owner.id)) ?? throwNotFound());
  }

  private async withApproval(stored: StoredSmsConfigView): Promise<SmsConfigViewDto> {
    return inFieldOrder(SMS_CONFIG_VIEW_FIELDS, { ...stored, destinationApproved: (await this.approval.current()).approves(stored) });
  }

  async update(
    owner: AuthenticatedClient,
    smsConfigId: number,
    request: UpdateSmsConfigDto,
    origin: ChangeOrigin,
  ): Promise<UpdatedSmsConfigDto> {
    const sent = sentColumns(request);
    if (sent.length === 0 && request.destinationPrices === undefined) {
      throw new BadRequestException(`request body must set at least one of ${CHANGEABLE_FIELDS.join(', ')}`);
    }
    return this.transactions.run(async () => {
      await this.smsConfigs.lockOwner(owner.id);
      const stored = (await this.smsConfigs.lockSealed(smsConfigId, owner.id)) ?? throwNotFound();
      assertCredentialsFollowDestination(stored, request);
      const changes: SmsConfigChanges = this.storedFrom(request, sent, 'field', owner.id);
      await this.budget.assertAnswerFits(smsConfigId, owner.id, changes);
      const touchesCredentials = sent.some(({ field }) => (CREDENTIAL_BOUND_FIELDS as readonly string[]).includes(field));
      const credentialVersion = touchesCredentials ? stored.credentialVersion + 1 : stored.credentialVersion;
      await this.smsConfigs.update(smsConfigId, owner.id, changes, origin, {
        credentialVersion: touchesCredentials ? credentialVersion : undefined,
        destinationPrices: request.destinationPrices,
      });
      await this.clientCache.changed({ keys: owner.keyDigests, smsConfig: sent.map(({ property }) => property) });
      const apiKey = request.apiKey !== undefined ? request.apiKey : this.tokens.openApiKey(stored.apiKeySealed, owner.id);
      const updated = await this.withApproval((await this.smsConfigs.findOne(smsConfigId, owner.id))!);
      return inFieldOrder(UPDATED_SMS_CONFIG_FIELDS, {
        ...updated,
        verifyApiKey: this.verifyApiKeyFor(owner, { smsConfigId, credentialVersion }, apiKey),
      });
    });
  }

  async delete(owner: AuthenticatedClient, smsConfigId: number, origin: ChangeOrigin): Promise<DeletedSmsConfigDto> {
    return this.transactions.run(async () => {
      if (!(await this.smsConfigs.delete(smsConfigId, owner.id, origin))) throwNotFound();
      await this.clientCache.changed({ keys: owner.keyDigests, smsConfig: 'row' });
      return { smsConfigId, deleted: true };
    });
  }

  async issueVerifyApiKey(owner: AuthenticatedClient, smsConfigId: number): Promise<VerifyApiKeyDto> {
    const stored = (await this.smsConfigs.findSealed(smsConfigId, owner.id)) ?? throwNotFound();
    return { verifyApiKey: this.verifyApiKeyFor(owner, stored, this.tokens.openApiKey(stored.apiKeySealed, owner.id)) };
  }

  async resolve(verifyApiKey: string, origin: ChangeOrigin): Promise<ResolvedSmsConfigDto> {
    const token = this.openToken(verifyApiKey);
    const found =
      (await this.smsConfigs.findToResolve(token.smsConfigId, token.clientId, token.issue?.issuingKeyTag ?? null)) ?? throwNotFound();
    if (!found.clientIsActive) throw new ClientDisabledException();
    const apiKey = this.tokens.openApiKey(found.apiKeySealed, found.clientId);
    const fingerprintMatches = this.sealer.fingerprint(apiKey ?? '', token.keyId) === token.apiKeyFingerprint;
    const refusal = tokenRefusal(token, found, fingerprintMatches, apiKey !== null);
    if (refusal) throw refusal;
    if (!(await this.approval.current()).approves(found))
      throw new ConflictException("the SMS configuration's destination is not approved");
    const password = found.passwordSealed === null ? null : this.sealer.open(found.passwordSealed, passwordSealContext(found.clientId));
    await this.smsConfigs.recordResolution(found.smsConfigId, found.clientId, origin);
    return inFieldOrder(RESOLVED_SMS_CONFIG_FIELDS, { ...found, password, apiKey, destinationApproved: true });
  }

  private openToken(verifyApiKey: string) {
    try {
      return this.sealer.openVerifyApiKey(verifyApiKey);
    } catch (error) {
      if (error instanceof UnsealError || error instanceof SyntaxError) throw new BadRequestException('verifyApiKey is not valid');
      throw error;
    }
  }

  private verifyApiKeyFor(
    owner: AuthenticatedClient,
    { smsConfigId, credentialVersion }: Pick<SealedSecrets, 'smsConfigId' | 'credentialVersion'>,
    apiKey: string | null,
  ): string {
    return this.tokens.issue({ smsConfigId, clientId: owner.id, credentialVersion, presentedKeyDigest: owner.secretKeyDigest }, apiKey);
  }

  // The values these columns store, by the columns' property or the request's field: the secrets sealed, a null kept
  // (the repository stores its column's default).
  private storedFrom(
    request: AddSmsConfigDto | UpdateSmsConfigDto,
    columns: RequestColumn[],
    key: 'property' | 'field',
    clientId: number,
  ): Record<string, SqlValue> {
    const stored: Record<string, SqlValue> = {};
    for (const column of columns) {
      const value = valueOf(request, column.field) as SqlValue;
      stored[column[key]] =
        value === null || !column.sealed ? value : this.sealer.seal(value as string, SEAL_CONTEXTS[column.field](clientId));
    }
    return stored;
  }
}

function valueOf(request: AddSmsConfigDto | UpdateSmsConfigDto, field: string): unknown {
  return (request as unknown as Record<string, unknown>)[field];
}

function sentColumns(request: AddSmsConfigDto | UpdateSmsConfigDto): RequestColumn[] {
  return SMS_CONFIG_REQUEST_COLUMNS.filter(({ field }) => valueOf(request, field) !== undefined);
}

function throwNotFound(): never {
  throw new SmsConfigNotFoundException();
}

// A stolen secretKey must not send the stored credentials somewhere new.
function assertCredentialsFollowDestination(stored: SealedSecrets, request: UpdateSmsConfigDto): void {
  const destinations = DESTINATION_FIELDS.filter((field) => request[field] !== undefined);
  if (destinations.length === 0) return;
  const held = [
    ...(stored.passwordSealed !== null ? (['password'] as const) : []),
    ...(stored.apiKeySealed !== null ? (['apiKey'] as const) : []),
  ];
  const missing = held.filter((credential) => request[credential] === undefined);
  if (missing.length > 0) {
    throw new BadRequestException(`${missing.join(' and ')} must be sent again to change ${destinations.join(', ')}`);
  }
}

function assertOwnClientId(ownerId: number, requestedClientId: number | undefined): void {
  if (requestedClientId !== undefined && requestedClientId !== ownerId) {
    throw new ForbiddenException('clientId does not belong to the client of this secretKey');
  }
}
