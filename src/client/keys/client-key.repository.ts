import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditLog } from '../../audit/audit.repository';
import { AuditEntry } from '../../audit/audit-entry';
import { ChangeOrigin } from '../../auth/actor';
import { Transactions } from '../../database/transactions';
import { Client } from '../client.entity';
import { ClientKey } from './client-key.entity';

export type NewClientKey = Pick<
  ClientKey,
  'clientId' | 'keyDigest' | 'keyStart' | 'name' | 'scopes' | 'expiresAt' | 'allowedSources' | 'createdAt'
>;

@Injectable()
export class ClientKeyRepository {
  constructor(
    private readonly transactions: Transactions,
    private readonly auditLog: AuditLog,
  ) {}

  private get manager(): EntityManager {
    return this.transactions.manager;
  }

  // Expired keys count until deleted.
  count(clientId: number): Promise<number> {
    return this.manager.getRepository(ClientKey).count({ where: { clientId } });
  }

  async insert(key: NewClientKey, origin: ChangeOrigin): Promise<ClientKey> {
    const { identifiers } = await this.manager.getRepository(ClientKey).insert(key);
    const stored: ClientKey = { ...key, id: Number(identifiers[0].id), lastUsedAt: null, lastUsedFrom: null };
    await this.listDigestsOnClient(key.clientId);
    await this.auditLog.record(auditEntryOf('client.key-created', stored, origin));
    return stored;
  }

  list(clientId: number, afterId: number, limit: number): Promise<ClientKey[]> {
    return this.manager
      .getRepository(ClientKey)
      .createQueryBuilder('k')
      .where('k.clientId = :clientId AND k.id > :afterId', { clientId, afterId })
      .orderBy('k.id')
      .limit(limit + 1)
      .getMany();
  }

  async clientExists(clientId: number): Promise<boolean> {
    return (await this.manager.getRepository(Client).countBy({ id: clientId })) > 0;
  }

  findOne(clientId: number, keyId: number): Promise<ClientKey | null> {
    return this.manager.getRepository(ClientKey).findOneBy({ id: keyId, clientId });
  }

  async delete(key: ClientKey, origin: ChangeOrigin): Promise<void> {
    await this.manager.getRepository(ClientKey).delete({ id: key.id });
    await this.listDigestsOnClient(key.clientId);
    await this.auditLog.record(auditEntryOf('client.key-deleted', key, origin));
  }

  // Each audited with the change that deletes them (a rotation's deleteScopedKeys).
  async deleteAll(clientId: number, origin: ChangeOrigin): Promise<void> {
    const keys = await this.manager.getRepository(ClientKey).find({ where: { clientId }, order: { id: 'ASC' } });
    if (keys.length === 0) return;
    await this.manager.getRepository(ClientKey).delete({ clientId });
    await this.listDigestsOnClient(clientId);
    for (const key of keys) await this.auditLog.record(auditEntryOf('client.key-deleted', key, origin));
  }

  // Under the client's lock (ClientRepository.lockKeys), in the key's transaction: get-client's read lists them there.
  private async listDigestsOnClient(clientId: number): Promise<void> {
    const keys = await this.manager
      .getRepository(ClientKey)
      .find({ select: { keyDigest: true }, where: { clientId }, order: { id: 'ASC' } });
    const scopedKeyDigests = keys.length === 0 ? null : keys.map(({ keyDigest }) => keyDigest);
    await this.manager.update(Client, { id: clientId }, { scopedKeyDigests });
  }
}

function auditEntryOf(action: 'client.key-created' | 'client.key-deleted', key: ClientKey, origin: ChangeOrigin): AuditEntry {
  return { action, origin, clientId: key.clientId, changed: [], details: { keyId: key.id, name: key.name, scopes: key.scopes } };
}
