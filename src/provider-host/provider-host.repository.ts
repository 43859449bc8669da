import { Injectable } from '@nestjs/common';
import { AuditLog } from '../audit/audit.repository';
import { ChangeOrigin } from '../auth/actor';
import { Transactions } from '../database/transactions';
import { ProviderHost } from './provider-host.entity';

@Injectable()
export class ProviderHostRepository {
  constructor(
    private readonly transactions: Transactions,
    private readonly auditLog: AuditLog,
  ) {}

  async allHosts(): Promise<string[]> {
    const rows = await this.transactions.manager.getRepository(ProviderHost).createQueryBuilder('h').select('h.host', 'host').getRawMany();
    return rows.map((row: { host: string }) => row.host);
  }

  // One row more than limit tells whether a next page exists.
  async list(afterId: number, limit: number): Promise<ProviderHost[]> {
    return this.transactions.manager
      .getRepository(ProviderHost)
      .createQueryBuilder('h')
      .where('h.id > :afterId', { afterId })
      .orderBy('h.id')
      .limit(limit + 1)
      .getMany();
  }

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
        details: { host },
      });
      return { id, host, note, createdAt };
    });
  }

  async remove(providerHostId: number, origin: ChangeOrigin): Promise<boolean> {
    return this.transactions.run(async (manager) => {
      // Read first: the entry names the host removed, which the row no longer can.
      const found = await manager.findOne(ProviderHost, { select: { host: true }, where: { id: providerHostId } });
      if (found === null) return false;
      const deleted = await manager.delete(ProviderHost, { id: providerHostId });
      if (!deleted.affected) return false;
      await this.auditLog.record({
        action: 'provider-host.removed',
        origin,
        clientId: null,
        changed: ['host'],
        details: { host: found.host },
      });
      return true;
    });
  }
}
