import { Injectable } from '@nestjs/common';
import { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { sqlTimestamp } from '../database/timestamps';
import { DeliveryCount } from './delivery-count.entity';
import { PumpingBaseline } from './pumping-baseline.entity';
import { PumpingCount } from './pumping-count.entity';
import { PumpingRange } from './pumping-range.entity';

// Each deletes at most `limit` rows, oldest first, the keys read by the bound's index, then deleted by primary key.
@Injectable()
export class DeliverySignalsRetentionRepository {
  deleteDeliveryCountsBefore(manager: EntityManager, firstKeptMinute: number, limit: number): Promise<number> {
    const oldest = manager
      .getRepository(DeliveryCount)
      .createQueryBuilder('d')
      .select(['d.smsConfigId', 'd.callingCode', 'd.minute'])
      .where('d.minute < :firstKeptMinute', { firstKeptMinute })
      .orderBy('d.minute')
      .limit(limit);
    return deleteFound(manager, DeliveryCount, oldest);
  }

  deletePumpingCountsBefore(manager: EntityManager, firstKeptMinute: number, limit: number): Promise<number> {
    const oldest = manager
      .getRepository(PumpingCount)
      .createQueryBuilder('p')
      .select(['p.clientId', 'p.range', 'p.minute'])
      .where('p.minute < :firstKeptMinute', { firstKeptMinute })
      .orderBy('p.minute')
      .limit(limit);
    return deleteFound(manager, PumpingCount, oldest);
  }

  deletePumpingBaselinesBefore(manager: EntityManager, firstKeptDay: string, limit: number): Promise<number> {
    const oldest = manager
      .getRepository(PumpingBaseline)
      .createQueryBuilder('b')
      .select(['b.clientId', 'b.day'])
      .where('b.day < :firstKeptDay', { firstKeptDay })
      .orderBy('b.day')
      .limit(limit);
    return deleteFound(manager, PumpingBaseline, oldest);
  }

  // A suspicion ends when lifted, else at its until.
  deletePumpingRangesEndedBefore(manager: EntityManager, endedBefore: Date, limit: number): Promise<number> {
    const oldest = manager
      .getRepository(PumpingRange)
      .createQueryBuilder('r')
      .select('r.id')
      .where('(r.liftedAt IS NOT NULL AND r.liftedAt < :endedBefore) OR (r.liftedAt IS NULL AND r.until < :endedBefore)', {
        endedBefore: sqlTimestamp(endedBefore),
      })
      .orderBy('r.id')
      .limit(limit);
    return deleteFound(manager, PumpingRange, oldest);
  }
}

// SQLite parses the OR of composite keys one level deep per key, and refuses an expression deeper than 1,000.
const KEYS_PER_STATEMENT = 200;

async function deleteFound<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: new () => T,
  oldest: SelectQueryBuilder<T>,
): Promise<number> {
  const { metadata } = manager.getRepository(entity);
  // Only the primary key: an entity read with some columns holds the others as undefined, which whereInIds would compare.
  const keys = (await oldest.getMany()).map((row) => metadata.getEntityIdMap(row)!);
  let deleted = 0;
  for (let start = 0; start < keys.length; start += KEYS_PER_STATEMENT) {
    const chunk = keys.slice(start, start + KEYS_PER_STATEMENT);
    const { affected } = await manager.createQueryBuilder().delete().from(entity).whereInIds(chunk).execute();
    deleted += affected ?? chunk.length;
  }
  return deleted;
}
