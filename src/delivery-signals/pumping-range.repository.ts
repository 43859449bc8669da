import { Injectable } from '@nestjs/common';
import { AuditLog } from '../audit/audit.repository';
import { ChangeOrigin } from '../auth/actor';
import { Client } from '../client/client.entity';
import { Page, pageOf } from '../common/pagination/page';
import { sqlTimestamp } from '../database/timestamps';
import { Transactions } from '../database/transactions';
import { PumpingCount } from './pumping-count.entity';
import { PumpingRange } from './pumping-range.entity';

export interface PumpingRangeFilter {
  clientId?: number;
  // Standing at `now`: until after it and not lifted.
  standing?: { now: Date; standing: boolean };
}

const STANDING = 'r.liftedAt IS NULL AND r.until > :now';

@Injectable()
export class PumpingRangeRepository {
  constructor(
    private readonly transactions: Transactions,
    private readonly auditLog: AuditLog,
  ) {}

  // Newest first; one row more than limit tells whether a next page exists.
  async list(filter: PumpingRangeFilter, limit: number, before: number | undefined): Promise<Page<PumpingRange>> {
    const query = this.transactions.manager.getRepository(PumpingRange).createQueryBuilder('r');
    if (before !== undefined) query.andWhere('r.id < :before', { before });
    if (filter.clientId !== undefined) query.andWhere('r.clientId = :clientId', { clientId: filter.clientId });
    if (filter.standing !== undefined) {
      query.andWhere(filter.standing.standing ? STANDING : `NOT (${STANDING})`, { now: sqlTimestamp(filter.standing.now) });
    }
    const rows = await query
      .orderBy('r.id', 'DESC')
      .limit(limit + 1)
      .getMany();
    return pageOf(rows, limit, (row) => row.id);
  }

  async findById(pumpingRangeId: number): Promise<PumpingRange | null> {
    return this.transactions.manager.getRepository(PumpingRange).findOne({ where: { id: pumpingRangeId } });
  }

  // The lock reports take before they count or suspect, so a lift and a report on one client follow each other. Locked on
  // MySQL; SQLite runs one transaction at a time anyway.
  async lockClient(clientId: number): Promise<boolean> {
    const query = this.transactions.manager.getRepository(Client).createQueryBuilder('c').select('c.id').where({ id: clientId });
    if (this.transactions.dialect === 'mysql') query.setLock('pessimistic_write');
    return (await query.getOne()) !== null;
  }

  // Only a standing suspicion is lifted: false when it was not (lifted already, or past until), and nothing is changed.
  async lift(range: PumpingRange, now: Date, origin: ChangeOrigin): Promise<boolean> {
    const manager = this.transactions.manager;
    const lifted = await manager
      .createQueryBuilder()
      .update(PumpingRange)
      .set({ liftedAt: now })
      .where({ id: range.id })
      .andWhere('lifted_at IS NULL AND suspected_until > :now', { now: sqlTimestamp(now) })
      .updateEntity(false)
      .execute();
    if (lifted.affected !== 1) return false;
    await manager.delete(PumpingCount, { clientId: range.clientId, range: range.range });
    await this.auditLog.record({
      action: 'client.pumping-lifted',
      origin,
      clientId: range.clientId,
      changed: [],
      details: { range: range.range },
    });
    return true;
  }
}
