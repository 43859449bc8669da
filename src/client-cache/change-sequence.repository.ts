import { Injectable } from '@nestjs/common';
import { In, LessThan } from 'typeorm';
import { ScriptStatement, SqlValue, Transactions } from '../database/transactions';
import { ChangeSequenceEntry } from './change-sequence.entity';

export interface SequencedLine {
  id: number;
  line: string;
  origin: string;
}

@Injectable()
export class ChangeSequenceRepository {
  constructor(private readonly transactions: Transactions) {}

  private get entries() {
    return this.transactions.manager.getRepository(ChangeSequenceEntry);
  }

  // In the caller's transaction when there is one: the lines commit, or roll back, with the change.
  async append(lines: string[], origin: string): Promise<void> {
    if (lines.length === 0) return;
    const createdAt = new Date();
    await this.entries
      .createQueryBuilder()
      .insert()
      .values(lines.map((line) => ({ line, origin, createdAt })))
      .updateEntity(false)
      .execute();
  }

  // The same rows as append(), as a statement of a write script: a change made in one round trip keeps it.
  appendStatement(lines: string[], origin: string): ScriptStatement {
    const createdAt = new Date();
    const [sql, values] = this.entries
      .createQueryBuilder()
      .insert()
      .values(lines.map((line) => ({ line, origin, createdAt })))
      .updateEntity(false)
      .getQueryAndParameters();
    return { sql, values: values as SqlValue[] };
  }

  // The highest ids stored, highest first: one range read on the primary key.
  async latestIds(count: number): Promise<number[]> {
    const rows = await this.entries
      .createQueryBuilder('c')
      .select('c.id', 'id')
      .orderBy('c.id', 'DESC')
      .limit(count)
      .getRawMany<{ id: number | string }>();
    return rows.map(({ id }) => Number(id));
  }

  // The line at `from` and those above it, and those of the ids still missing below it, in id order: a range and a
  // list on the primary key, one statement. The row at `from` tells a reader whether what it read last was pruned.
  async readFrom(from: number, missing: number[], limit: number): Promise<SequencedLine[]> {
    const query = this.entries
      .createQueryBuilder('c')
      .select(['c.id AS id', 'c.line AS line', 'c.origin AS origin'])
      .where('c.id >= :from', { from });
    if (missing.length > 0) query.orWhere('c.id IN (:...missing)', { missing });
    const rows = await query.orderBy('c.id').limit(limit).getRawMany<{ id: number | string; line: string; origin: string }>();
    return rows.map(({ id, line, origin }) => ({ id: Number(id), line, origin }));
  }

  async deleteBefore(before: Date, limit: number): Promise<number> {
    const old = await this.entries.find({
      select: { id: true },
      where: { createdAt: LessThan(before) },
      order: { createdAt: 'ASC' },
      take: limit,
    });
    if (old.length > 0) await this.entries.delete({ id: In(old.map(({ id }) => id)) });
    return old.length;
  }
}
