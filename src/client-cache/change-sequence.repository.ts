import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { SqlNames } from '../database/sql-names';
import { ScriptStatement, SqlValue, Transactions } from '../database/transactions';
import { ChangeSequenceEntry } from './change-sequence.entity';

export interface SequencedLine {
  id: number;
  line: string;
  origin: string;
}

@Injectable()
export class ChangeSequenceRepository {
  private readonly insert: string;
  private readonly row: string;

  constructor(
    private readonly transactions: Transactions,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const names = new SqlNames(dataSource, ChangeSequenceEntry);
    this.insert = `INSERT INTO ${names.table} (${names.columns(['line', 'origin', 'createdAt'])}) VALUES `;
    this.row = `(?, ?, ${this.databaseNow})`;
  }

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
    const { sql, values } = this.appendStatement(lines, origin);
    await this.transactions.sql(sql, values);
  }

  // The same rows as append(), as a statement of a write script. Plain SQL: the query builder's INSERT cost an
  // add-sms-config 4 % of its CPU.
  appendStatement(lines: string[], origin: string): ScriptStatement {
    const values: SqlValue[] = [];
    for (const line of lines) values.push(line, origin);
    return { sql: this.insert + lines.map(() => this.row).join(', '), values };
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
