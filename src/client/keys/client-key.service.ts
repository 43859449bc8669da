import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { ChangeOrigin } from '../../auth/actor';
import { readAllowedSources } from '../../auth/allowed-sources';
import { sha256Hex } from '../../auth/digest';
import { readExpiresAt } from '../../auth/key-expiry';
import { readScopes } from '../../auth/key-scopes';
import { generateScopedKey } from '../../auth/scoped-key';
import { ClientCacheInvalidation } from '../../client-cache/client-cache-invalidator';
import { DEFAULT_PAGE_LIMIT, Page, cursorPosition, pageOf } from '../../common/pagination/page';
import { Transactions } from '../../database/transactions';
import { Idempotency } from '../../idempotency/idempotency-of.decorator';
import { ClientNotFoundException, digestsOf } from '../client-admin.service';
import { ClientKeys, ClientRepository } from '../client.repository';
import { ClientKey } from './client-key.entity';
import { ClientKeyRepository, NewClientKey } from './client-key.repository';
import {
  ClientKeyDto,
  ClientKeyListQueryDto,
  CreateClientKeyDto,
  CreatedClientKeyDto,
  CreatedClientKeyResponseDto,
  DeletedClientKeyDto,
  ListedClientKeyDto,
  MAX_SCOPED_KEYS,
  TOO_MANY_SCOPED_KEYS,
} from './dto/client-key.dto';

const KEY_START_LENGTH = 7;

export class ClientKeyNotFoundException extends NotFoundException {
  constructor() {
    super('Scoped key not found');
  }
}

// A client's scoped keys, for its current root key and for the admin. Making or deleting one changes which keys the
// client's cached answers are held under, so both drop every one of them.
@Injectable()
export class ClientKeyService {
  constructor(
    private readonly clients: ClientRepository,
    private readonly keys: ClientKeyRepository,
    private readonly transactions: Transactions,
    private readonly cache: ClientCacheInvalidation,
  ) {}

  // The key is kept only as its digest: it is in this answer and nowhere else.
  async create(clientId: number, request: CreateClientKeyDto, origin: ChangeOrigin): Promise<CreatedClientKeyDto> {
    const secretKey = generateScopedKey();
    const keyDigest = sha256Hex(secretKey);
    const stored = await this.transactions.run(async () => {
      const keys = await this.lockedKeysOf(clientId);
      if ((await this.keys.count(clientId)) >= MAX_SCOPED_KEYS) throw new ConflictException(TOO_MANY_SCOPED_KEYS);
      const key = await this.keys.insert(newKeyOf(clientId, request, keyDigest, secretKey), origin);
      await this.cache.changed({ keys: digestsOf(keys), client: 'row' });
      this.cache.keyIssued(keyDigest);
      return key;
    });
    return { ...keyDtoOf(stored), secretKey };
  }

  // Once per Idempotency-Key; a replay hands the key out again, so each replay is audited (client.secret-key.replayed).
  createOnce(idempotency: Idempotency, clientId: number, origin: ChangeOrigin, creation: () => Promise<CreatedClientKeyDto>) {
    return idempotency.once(async () => CreatedClientKeyResponseDto.of(await creation()), {
      replayed: () => this.clients.recordSecretKeyReplay(clientId, origin),
    });
  }

  async list(clientId: number, query: ClientKeyListQueryDto): Promise<Page<ListedClientKeyDto>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const afterId = cursorPosition(query.cursor) ?? 0;
    const rows = await this.keys.list(clientId, afterId, limit);
    if (rows.length === 0 && !(await this.keys.clientExists(clientId))) throwClientNotFound();
    const now = Date.now();
    return pageOf(
      rows.map((row) => listedKeyOf(row, now)),
      limit,
      (key) => key.keyId,
    );
  }

  async delete(clientId: number, keyId: number, origin: ChangeOrigin): Promise<DeletedClientKeyDto> {
    return this.transactions.run(async () => {
      const keys = await this.lockedKeysOf(clientId);
      const key = (await this.keys.findOne(clientId, keyId)) ?? throwKeyNotFound();
      await this.keys.delete(key, origin);
      await this.cache.changed({ keys: digestsOf(keys), client: 'row' });
      return { keyId, deleted: true };
    });
  }

  private async lockedKeysOf(clientId: number): Promise<ClientKeys> {
    return (await this.clients.lockKeys(clientId)) ?? throwClientNotFound();
  }
}

// Read again by the readers that validated it; an end now under 60 s ahead (validated a moment ago) is refused as then.
function newKeyOf(clientId: number, request: CreateClientKeyDto, keyDigest: string, secretKey: string): NewClientKey {
  const scopes = readScopes(request.scopes);
  const expiresAt = request.expiresAt == null ? null : readExpiresAt(request.expiresAt, Date.now());
  const sources = request.allowedSources == null ? null : readAllowedSources(request.allowedSources);
  if ('refusal' in scopes) throw new BadRequestException(scopes.refusal);
  if (expiresAt !== null && 'refusal' in expiresAt) throw new BadRequestException(expiresAt.refusal);
  if (sources !== null && 'refusal' in sources) throw new BadRequestException(sources.refusal);
  return {
    clientId,
    keyDigest,
    keyStart: secretKey.slice(0, KEY_START_LENGTH),
    name: request.name,
    scopes: scopes.scopes,
    expiresAt: expiresAt === null ? null : new Date(expiresAt.expiresAt),
    allowedSources: sources === null ? null : sources.sources,
    createdAt: new Date(),
  };
}

function keyDtoOf(key: ClientKey): ClientKeyDto {
  return {
    keyId: key.id,
    name: key.name,
    scopes: key.scopes,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    allowedSources: key.allowedSources,
    createdAt: key.createdAt.toISOString(),
  };
}

function listedKeyOf(key: ClientKey, now: number): ListedClientKeyDto {
  return {
    ...keyDtoOf(key),
    keyStart: key.keyStart,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    lastUsedFrom: key.lastUsedFrom,
    expired: key.expiresAt !== null && key.expiresAt.getTime() <= now,
  };
}

function throwClientNotFound(): never {
  throw new ClientNotFoundException();
}

function throwKeyNotFound(): never {
  throw new ClientKeyNotFoundException();
}
