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
    return deleteOldest(manager, DeliveryCount, 'minute', firstKeptMinute, limit);
  }

  deletePumpingCountsBefore(manager: EntityManager, firstKeptMinute: number, limit: number): Promise<number> {
    return deleteOldest(manager, PumpingCount, 'minute', firstKeptMinute, limit);
  }

  deletePumpingBaselinesBefore(manager: EntityManager, firstKeptDay: string, limit: number): Promise<number> {
    return deleteOldest(manager, PumpingBaseline, 'day', firstKeptDay, limit);
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

// The rows whose `column` is under `bound`, oldest first, by the column's index.
function deleteOldest<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: new () => T,
  column: keyof T & string,
  bound: number | string,
  limit: number,
): Promise<number> {
  const { metadata } = manager.getRepository(entity);
  const oldest = manager
    .getRepository(entity)
    .createQueryBuilder('row')
    .select(metadata.primaryColumns.map((primary) => `row.${primary.propertyName}`))
    .where(`row.${column} < :bound`, { bound })
    .orderBy(`row.${column}`)
    .limit(limit);
  return deleteFound(manager, entity, oldest);
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
