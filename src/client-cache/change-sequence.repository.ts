import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
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

  // The database's clock, in UTC as every timestamp is written (sqlTimestamp): one instance's clock off by an hour
  // would have its lines pruned at once, or prune the others' before they were read.
  private get databaseNow(): string {
    return this.transactions.dialect === 'mysql' ? 'UTC_TIMESTAMP(3)' : "strftime('%Y-%m-%d %H:%M:%f', 'now')";
  }

  // In the caller's transaction when there is one: the lines commit, or roll back, with the change.
  async append(lines: string[], origin: string): Promise<void> {
    if (lines.length === 0) return;
    await this.inserting(lines, origin).execute();
  }

  // The same rows as append(), as a statement of a write script: a change made in one round trip keeps it.
  appendStatement(lines: string[], origin: string): ScriptStatement {
    const [sql, values] = this.inserting(lines, origin).getQueryAndParameters();
    return { sql, values: values as SqlValue[] };
  }

  private inserting(lines: string[], origin: string) {
    const createdAt = () => this.databaseNow;
    return this.entries
      .createQueryBuilder()
      .insert()
      .values(lines.map((line) => ({ line, origin, createdAt })))
      .updateEntity(false);
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

  // Older than `keptMs` by the database's clock, as the lines were stamped.
  async deleteOlderThan(keptMs: number, limit: number): Promise<number> {
    const seconds = Math.ceil(keptMs / 1000);
    const cutoff =
      this.transactions.dialect === 'mysql'
        ? `${this.databaseNow} - INTERVAL ${seconds} SECOND`
        : `strftime('%Y-%m-%d %H:%M:%f', 'now', '-${seconds} seconds')`;
    const old = await this.entries
      .createQueryBuilder('c')
      .select('c.id', 'id')
      .where(`c.createdAt < ${cutoff}`)
      .orderBy('c.createdAt')
      .limit(limit)
      .getRawMany<{ id: number | string }>();
    if (old.length > 0) await this.entries.delete({ id: In(old.map(({ id }) => Number(id))) });
    return old.length;
  }
}
