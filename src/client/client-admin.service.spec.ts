import { ChangeOrigin } from '../auth/actor';
import { sha256Hex } from '../auth/digest';
import { CacheChange, ClientCacheInvalidation, GetClientColumns, scopeOf } from '../client-cache/client-cache-invalidator';
import { BadRequestException, ForbiddenException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuditEntry } from '../audit/audit-entry';
import { AppConfig } from '../config/app-config';
import { mysqlMetadataOnly } from '../entities';
import { Transactions } from '../database/transactions';
import { ClientAdminService, ClientNotFoundException } from './client-admin.service';
import { NewClient } from './client-fields';
import { ClientKeys, ClientRepository } from './client.repository';
import { AddClientDto } from './dto/add-client.dto';
import { AdminClientDto, UpdateClientDto } from './dto/admin-client.dto';
import { GetClientRepository } from './get-client.repository';
import { ClientKeyRepository } from './keys/client-key.repository';

const ORIGIN = { actor: 'admin:12345678', requestId: 'r1', callerRequestId: null, sourceAddress: '203.0.113.7', userAgent: 'curl/8.5.0' };
const KEYS: ClientKeys = {
  clientId: 7,
  isActive: true,
  secretKeyDigest: 'c'.repeat(64),
  previousSecretKeyDigest: 'p'.repeat(64),
  secretKeyLastUsedAt: null,
  secretKeyLastUsedFrom: null,
  scopedKeyDigests: ['s'.repeat(64)],
};
const EVERY_KEY = [KEYS.secretKeyDigest, KEYS.previousSecretKeyDigest, ...KEYS.scopedKeyDigests];
// The fields these tests change; the view's others are the repository's to read.
const STORED = { clientId: 7, appName: 'Billing', appDescription: 'old', isHost: false, isActive: true } as AdminClientDto;

describe('ClientAdminService', () => {
  let clients: jest.Mocked<Pick<ClientRepository, 'insert' | 'lockKeys' | 'findById' | 'update' | 'delete' | 'rotateKey'>>;
  let cache: jest.Mocked<ClientCacheInvalidation>;
  let scopedKeys: jest.Mocked<Pick<ClientKeyRepository, 'deleteAll'>>;
  let service: ClientAdminService;
  let columns: GetClientColumns;

  beforeAll(async () => {
    columns = new GetClientRepository({} as Transactions, await mysqlMetadataOnly());
  });

  /** What the last change drops, as the cache's one decision takes it from the columns get-client reads. */
  const dropped = () => {
    const change = cache.changed.mock.calls.at(-1)![0] as Exclude<CacheChange, { providerHosts: true }>;
    return { scope: scopeOf(change, columns), keys: change.keys };
  };

  beforeEach(() => {
    clients = {
      insert: jest.fn((request: AddClientDto, secretKeyDigest: string, _origin: ChangeOrigin) =>
        Promise.resolve({ ...request, secretKeyDigest } as unknown as NewClient),
      ),
      lockKeys: jest.fn().mockResolvedValue(KEYS),
      findById: jest.fn().mockResolvedValue(STORED),
      // The columns written, as the repository answers them.
      update: jest.fn((_clientId: number, changes: UpdateClientDto, _audit: AuditEntry[]) =>
        Promise.resolve([...Object.keys(changes), 'updatedAt']),
      ),
      delete: jest.fn().mockResolvedValue(undefined),
      rotateKey: jest.fn().mockResolvedValue(['secretKeyDigest', 'previousSecretKeyDigest', 'previousKeyExpiresAt', 'updatedAt']),
    };
    cache = { changed: jest.fn(), changeStatements: jest.fn(), keyIssued: jest.fn() };
    const transactions = { run: (work: () => Promise<unknown>) => work() } as unknown as Transactions;
    const config = { get: () => 30_000 } as unknown as ConfigService<AppConfig, true>;
    scopedKeys = { deleteAll: jest.fn().mockResolvedValue(undefined) };
    service = new ClientAdminService(
      clients as unknown as ClientRepository,
      transactions,
      cache,
      scopedKeys as unknown as ClientKeyRepository,
      config,
    );
  });

  it('should add a client under the digest of a new key and answer the key, nowhere stored', async () => {
    const request = { appName: 'Billing', appUrl: 'https://billing.example.com', isHost: false };
    const answer = await service.add(request, ORIGIN);
    expect(answer.secretKey).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    // What the row holds of the request: ClientFields.added (client-fields.spec.ts).
    expect(clients.insert).toHaveBeenCalledWith(request, sha256Hex(answer.secretKey), ORIGIN);
    expect(JSON.stringify(clients.insert.mock.calls[0])).not.toContain(answer.secretKey);
    expect(answer).toMatchObject({ appUrl: 'https://billing.example.com', isHost: false, smsConfig: null });
    expect(cache.keyIssued).toHaveBeenCalledWith(sha256Hex(answer.secretKey));
  });

  it('should write only the fields that differ, audit them, and drop the answer under every key of the client, scoped ones too', async () => {
    await service.update(7, { appName: 'Billing', appDescription: null }, ORIGIN);
    expect(clients.update).toHaveBeenCalledWith(7, { appDescription: null }, [
      { action: 'client.updated', origin: ORIGIN, clientId: 7, changed: ['appDescription'] },
    ]);
    expect(dropped()).toEqual({ scope: 'answer', keys: EVERY_KEY });
  });

  it('should drop nothing for a change of fields neither get-client nor the guards read', async () => {
    await service.update(7, { appName: 'Renamed', dailySmsLimit: 500, pumpingGuard: 'block', allowPremiumNumbers: true }, ORIGIN);
    expect(clients.update).toHaveBeenCalled();
    expect(dropped()).toEqual({ scope: null, keys: EVERY_KEY });
  });

  it('should write nothing, audit nothing and invalidate nothing when nothing differs', async () => {
    await expect(service.update(7, { appName: 'Billing', isActive: true }, ORIGIN)).resolves.toEqual(STORED);
    expect(clients.update).not.toHaveBeenCalled();
    expect(cache.changed).not.toHaveBeenCalled();
  });

  it('should record disabling apart from other changes, and drop everything about every key', async () => {
    await service.update(7, { isActive: false, isHost: true }, ORIGIN);
    const [, , audit] = clients.update.mock.calls[0];
    expect(audit.map((entry) => [entry.action, entry.changed])).toEqual([
      ['client.updated', ['isHost']],
      ['client.disabled', ['isActive']],
    ]);
    expect(dropped()).toEqual({ scope: 'key', keys: EVERY_KEY });
  });

  it('should refuse an empty change with 400 and a missing client with 404', async () => {
    await expect(service.update(7, {}, ORIGIN)).rejects.toBeInstanceOf(BadRequestException);
    clients.lockKeys.mockResolvedValue(null);
    await expect(service.update(7, { appName: 'x' }, ORIGIN)).rejects.toBeInstanceOf(ClientNotFoundException);
    await expect(service.delete(7, ORIGIN)).rejects.toBeInstanceOf(ClientNotFoundException);
    expect(cache.changed).not.toHaveBeenCalled();
  });

  it('should let only the current key rotate, keep the previous one for the grace period, and revoke it at once with 0', async () => {
    await expect(service.rotateOwnKey(7, KEYS.previousSecretKeyDigest!, {}, ORIGIN)).rejects.toBeInstanceOf(ForbiddenException);
    expect(clients.rotateKey).not.toHaveBeenCalled();

    const before = Date.now();
    const rotated = await service.rotateOwnKey(7, KEYS.secretKeyDigest, {}, ORIGIN);
    expect(rotated.secretKey).toMatch(/^sk_/);
    expect(Date.parse(rotated.previousKeyExpiresAt!) - before).toBeGreaterThanOrEqual(86_400_000);
    const [, newDigest] = clients.rotateKey.mock.calls[0];
    expect(dropped()).toEqual({ scope: 'key', keys: [...EVERY_KEY, newDigest] });

    expect(scopedKeys.deleteAll).not.toHaveBeenCalled();
    await expect(service.rotateAsAdmin(7, { graceSeconds: 0 }, ORIGIN)).resolves.toMatchObject({ previousKeyExpiresAt: null });
    expect(clients.rotateKey.mock.calls[1][2]).toBeNull();
  });

  it('should delete every scoped key in the rotation when asked, with the rotation’s origin', async () => {
    await service.rotateOwnKey(7, KEYS.secretKeyDigest, { graceSeconds: 0, deleteScopedKeys: true }, ORIGIN);
    expect(scopedKeys.deleteAll).toHaveBeenCalledWith(7, ORIGIN);
  });
});
