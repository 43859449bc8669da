import { isDeepStrictEqual } from 'node:util';
import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../config/app-config';
import { AuditEntry } from '../audit/audit-entry';
import { ChangeOrigin } from '../auth/actor';
import { sha256Hex } from '../auth/digest';
import { missingScopeMessage } from '../auth/key-scopes';
import { generateSecretKey } from '../auth/secret-key';
import { ClientCacheInvalidation } from '../client-cache/client-cache-invalidator';
import { inFieldOrder } from '../common/answer-fields';
import { DEFAULT_PAGE_LIMIT, Page, cursorPosition, pageOf } from '../common/pagination/page';
import { Transactions } from '../database/transactions';
import { Idempotency } from '../idempotency/idempotency-of.decorator';
import { CHANGEABLE_CLIENT_FIELDS } from './client-fields';
import { ClientKeys, ClientRepository } from './client.repository';
import { AddClientDto } from './dto/add-client.dto';
import { AdminClientDto, ClientListQueryDto, DeletedClientDto, UpdateClientDto } from './dto/admin-client.dto';
import { CLIENT_FIELDS, ClientDto, ClientResponseDto } from './dto/client-response.dto';
import { DEFAULT_GRACE_SECONDS, RotateSecretKeyDto, RotatedSecretKeyDto, RotatedSecretKeyResponseDto } from './dto/secret-key-rotation.dto';
import { ClientKeyRepository } from './keys/client-key.repository';

export class ClientNotFoundException extends NotFoundException {
  constructor() {
    super('Client not found');
  }
}

@Injectable()
export class ClientAdminService {
  constructor(
    private readonly clients: ClientRepository,
    private readonly transactions: Transactions,
    private readonly cache: ClientCacheInvalidation,
    private readonly scopedKeys: ClientKeyRepository,
    config: ConfigService<AppConfig, true>,
  ) {
    this.keyUsageFlushMs = config.get('keyUsageFlushMs', { infer: true });
  }

  private readonly keyUsageFlushMs: number;

  // The key is kept only as its digest: it is in this answer and nowhere else.
  async add(request: AddClientDto, origin: ChangeOrigin): Promise<ClientDto> {
    const secretKey = generateSecretKey();
    const secretKeyDigest = sha256Hex(secretKey);
    const added = await this.clients.insert(request, secretKeyDigest, origin);
    this.cache.keyIssued(secretKeyDigest);
    return inFieldOrder(CLIENT_FIELDS, { ...added, secretKey, smsConfig: null });
  }

  async recordAddReplay(answer: ClientResponseDto, origin: ChangeOrigin): Promise<void> {
    const clientId = await this.clients.clientIdOfKey(sha256Hex(answer.results.secretKey));
    await this.clients.recordSecretKeyReplay(clientId, origin);
  }

  // previousKeyInUse: used within two flush intervals, the last one written and the one being noted.
  async list(query: ClientListQueryDto): Promise<Page<AdminClientDto>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const previousKeyUsedSince =
      query.previousKeyInUse === undefined
        ? undefined
        : { since: new Date(Date.now() - 2 * this.keyUsageFlushMs), used: query.previousKeyInUse === 'true' };
    const rows = await this.clients.list(cursorPosition(query.cursor) ?? 0, limit, query.appName ?? undefined, previousKeyUsedSince);
    return pageOf(rows, limit, (client) => client.clientId);
  }

  async get(clientId: number): Promise<AdminClientDto> {
    return (await this.clients.findById(clientId)) ?? throwNotFound();
  }

  async update(clientId: number, request: UpdateClientDto, origin: ChangeOrigin): Promise<AdminClientDto> {
    const sent = sentChanges(request);
    if (Object.keys(sent).length === 0) {
      throw new BadRequestException(`request body must set at least one of ${CHANGEABLE_CLIENT_FIELDS.join(', ')}`);
    }
    return this.transactions.run(async () => {
      const keys = (await this.clients.lockKeys(clientId)) ?? throwNotFound();
      const stored = (await this.clients.findById(clientId))!;
      const changes = Object.fromEntries(
        Object.entries(sent).filter(([field, value]) => !isDeepStrictEqual(stored[field as keyof UpdateClientDto], value)),
      ) as UpdateClientDto;
      const changed = Object.keys(changes);
      if (changed.length === 0) return stored;
      const written = await this.clients.update(clientId, changes, auditEntriesOf(clientId, changed, changes, origin));
      await this.cache.changed({ keys: digestsOf(keys), client: written });
      return (await this.clients.findById(clientId))!;
    });
  }

  async delete(clientId: number, origin: ChangeOrigin): Promise<DeletedClientDto> {
    return this.transactions.run(async () => {
      const keys = (await this.clients.lockKeys(clientId)) ?? throwNotFound();
      await this.clients.delete(clientId, origin);
      await this.cache.changed({ keys: digestsOf(keys), client: 'row' });
      return { clientId, deleted: true };
    });
  }

  // Once per Idempotency-Key; a replay hands the new key out again, so each replay is audited (client.secret-key.replayed).
  rotateOnce(idempotency: Idempotency, clientId: number, origin: ChangeOrigin, rotation: () => Promise<RotatedSecretKeyDto>) {
    return idempotency.once(async () => RotatedSecretKeyResponseDto.of(await rotation()), {
      replayed: () => this.clients.recordSecretKeyReplay(clientId, origin),
    });
  }

  async rotateAsAdmin(clientId: number, request: RotateSecretKeyDto, origin: ChangeOrigin): Promise<RotatedSecretKeyDto> {
    return this.transactions.run(async () => {
      const keys = (await this.clients.lockKeys(clientId)) ?? throwNotFound();
      return this.rotate(keys, request, origin);
    });
  }

  async rotateOwnKey(
    clientId: number,
    presentedDigest: string,
    request: RotateSecretKeyDto,
    origin: ChangeOrigin,
  ): Promise<RotatedSecretKeyDto> {
    return this.transactions.run(async () => {
      // Locked, so of two rotations with one key, the second sees the first's result and is refused.
      const keys = await this.clients.lockKeys(clientId);
      if (keys === null || keys.secretKeyDigest !== presentedDigest) {
        throw new ForbiddenException(missingScopeMessage('root'));
      }
      return this.rotate(keys, request, origin);
    });
  }

  private async rotate(keys: ClientKeys, request: RotateSecretKeyDto, origin: ChangeOrigin): Promise<RotatedSecretKeyDto> {
    const { graceSeconds = DEFAULT_GRACE_SECONDS, deleteScopedKeys = false } = request;
    const secretKey = generateSecretKey();
    const newDigest = sha256Hex(secretKey);
    const previousKeyExpiresAt = graceSeconds === 0 ? null : new Date(Date.now() + graceSeconds * 1000);
    const written = await this.clients.rotateKey(keys, newDigest, previousKeyExpiresAt, origin);
    if (deleteScopedKeys) await this.scopedKeys.deleteAll(keys.clientId, origin);
    await this.cache.changed({ keys: [...digestsOf(keys), newDigest], client: written });
    return { secretKey, previousKeyExpiresAt: previousKeyExpiresAt?.toISOString() ?? null };
  }
}

function throwNotFound(): never {
  throw new ClientNotFoundException();
}

// Every key the client's answer is cached under.
export function digestsOf(keys: ClientKeys): string[] {
  const rootKeys = keys.previousSecretKeyDigest === null ? [keys.secretKeyDigest] : [keys.secretKeyDigest, keys.previousSecretKeyDigest];
  return [...rootKeys, ...keys.scopedKeyDigests];
}

function sentChanges(request: UpdateClientDto): UpdateClientDto {
  const fields = CHANGEABLE_CLIENT_FIELDS;
  return Object.fromEntries(fields.filter((field) => request[field] !== undefined).map((field) => [field, request[field]]));
}

// Disabling and enabling are audit entries of their own; the other fields changed make one client.updated.
function auditEntriesOf(clientId: number, changed: string[], changes: UpdateClientDto, origin: ChangeOrigin): AuditEntry[] {
  const entries: AuditEntry[] = [];
  const updated = changed.filter((field) => field !== 'isActive');
  if (updated.length > 0) entries.push({ action: 'client.updated', origin, clientId, changed: updated });
  if (changes.isActive !== undefined) {
    entries.push({ action: changes.isActive ? 'client.enabled' : 'client.disabled', origin, clientId, changed: ['isActive'] });
  }
  return entries;
}
