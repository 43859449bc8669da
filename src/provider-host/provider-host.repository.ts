import { Injectable } from '@nestjs/common';
import { AuditLog } from '../audit/audit.repository';
import { ChangeOrigin } from '../auth/actor';
import { Transactions } from '../database/transactions';
import { ProviderHost } from './provider-host.entity';

/** The approved provider hosts: each change written with its audit entry, in one transaction. */
@Injectable()
export class ProviderHostRepository {
  constructor(
    private readonly transactions: Transactions,
    private readonly auditLog: AuditLog,
  ) {}

  /** Every host listed, for the in-memory list each instance keeps. */
  async allHosts(): Promise<string[]> {
    const rows = await this.transactions.manager.getRepository(ProviderHost).createQueryBuilder('h').select('h.host', 'host').getRawMany();
    return rows.map((row: { host: string }) => row.host);
  }

  /** A page by id, after `afterId`, one row more than `limit` (it tells that a next page exists). */
  async list(afterId: number, limit: number): Promise<ProviderHost[]> {
    return this.transactions.manager
      .getRepository(ProviderHost)
      .createQueryBuilder('h')
      .where('h.id > :afterId', { afterId })
      .orderBy('h.id')
      .limit(limit + 1)
      .getMany();
  }

  /** Inserts the host and its `provider-host.approved` entry; a host already listed fails with the driver's duplicate-key error. */
  async approve(host: string, note: string | null, origin: ChangeOrigin): Promise<ProviderHost> {
    return this.transactions.run(async (manager) => {
      const createdAt = new Date();
      await manager.createQueryBuilder().insert().into(ProviderHost).values({ host, note, createdAt }).updateEntity(false).execute();
      const { id } = await manager.findOneOrFail(ProviderHost, { select: { id: true }, where: { host } });
      await this.auditLog.record({
        action: 'provider-host.approved',
        origin,
        clientId: null,
        changed: note === null ? ['host'] : ['host', 'note'],
      });
      return { id, host, note, createdAt };
    });
  }

  /** Removes the host with its `provider-host.removed` entry; false when there is no such host. */
  async remove(providerHostId: number, origin: ChangeOrigin): Promise<boolean> {
    return this.transactions.run(async (manager) => {
      const deleted = await manager.delete(ProviderHost, { id: providerHostId });
      if (!deleted.affected) return false;
      await this.auditLog.record({ action: 'provider-host.removed', origin, clientId: null, changed: ['host'] });
      return true;
    });
  }
}
