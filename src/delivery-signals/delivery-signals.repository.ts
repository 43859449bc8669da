import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlNames } from '../database/sql-names';
import { sqlTimestamp } from '../database/timestamps';
import { Transactions } from '../database/transactions';
import { DeliveryCount } from './delivery-count.entity';
import { PumpingBaseline } from './pumping-baseline.entity';
import { PumpingCount } from './pumping-count.entity';
import { PumpingRange, PumpingSignal } from './pumping-range.entity';
import { RangeWindow } from './pumping-guard';

export interface PumpingState {
  windows: Map<string, RangeWindow>;
  // Ranges with a standing suspicion.
  suspected: Set<string>;
  // The highest window per UTC day kept, today's included.
  highestByDay: Map<string, number>;
}

export interface PumpingStateQuery {
  clientId: number;
  ranges: string[];
  firstMinute: number;
  lastSettledMinute: number;
  now: number;
  firstDay: string;
}

export interface DeliveryCountAdded {
  callingCode: string;
  minute: number;
  delivered: number;
  undelivered: number;
}

export interface PumpingCountAdded {
  range: string;
  minute: number;
  sent: number;
  codesSent: number;
  verified: number;
}

export interface Suspicion {
  clientId: number;
  range: string;
  signals: PumpingSignal[];
  window: RangeWindow;
  suspectedAt: number;
  until: number;
}

type StateRow = { kind: 'window' | 'suspected' | 'baseline'; name: string; a: NumberText; b: NumberText; c: NumberText; d: NumberText };
// SUM() is a DECIMAL for mysql2, which reads it as text.
type NumberText = number | string | null;

/** The report path's reads and writes of the delivery signals, in the report's transaction, under its locks. */
@Injectable()
export class DeliverySignalsRepository {
  private readonly deliveryCount: SqlNames<DeliveryCount>;
  private readonly pumpingCount: SqlNames<PumpingCount>;
  private readonly baseline: SqlNames<PumpingBaseline>;
  private readonly pumpingRange: SqlNames<PumpingRange>;

  constructor(
    private readonly transactions: Transactions,
    @InjectDataSource() dataSource: DataSource,
  ) {
    this.deliveryCount = new SqlNames(dataSource, DeliveryCount);
    this.pumpingCount = new SqlNames(dataSource, PumpingCount);
    this.baseline = new SqlNames(dataSource, PumpingBaseline);
    this.pumpingRange = new SqlNames(dataSource, PumpingRange);
  }

  // One round trip: the ranges' windows, their standing suspicions and the client's daily highs.
  async pumpingState({ clientId, ranges, firstMinute, lastSettledMinute, now, firstDay }: PumpingStateQuery): Promise<PumpingState> {
    const count = this.pumpingCount;
    const range = this.pumpingRange;
    const baseline = this.baseline;
    const marks = ranges.map(() => '?').join(', ');
    // Locking reads on MySQL: the transaction's snapshot was taken before the client's lock, and would miss what the
    // report that held the lock before this one committed.
    const locked = this.transactions.dialect === 'mysql';
    const part = (select: string) => (locked ? `(${select} LOCK IN SHARE MODE)` : select);
    const sql = [
      part(`SELECT 'window' AS kind, ${count.column('range')} AS name, SUM(${count.column('sent')}) AS a, SUM(${count.column('codesSent')}) AS b,
        SUM(CASE WHEN ${count.column('minute')} <= ? THEN ${count.column('codesSent')} ELSE 0 END) AS c, SUM(${count.column('verified')}) AS d
        FROM ${count.table} WHERE ${count.column('clientId')} = ? AND ${count.column('range')} IN (${marks}) AND ${count.column('minute')} >= ?
        GROUP BY ${count.column('range')}`),
      part(`SELECT 'suspected', ${range.column('range')}, 0, 0, 0, 0 FROM ${range.table}
        WHERE ${range.column('clientId')} = ? AND ${range.column('range')} IN (${marks}) AND ${range.column('until')} > ? AND ${range.column('liftedAt')} IS NULL`),
      part(`SELECT 'baseline', ${baseline.column('day')}, ${baseline.column('highestSent')}, 0, 0, 0 FROM ${baseline.table}
        WHERE ${baseline.column('clientId')} = ? AND ${baseline.column('day')} >= ?`),
    ].join(' UNION ALL ');
    const rows = await this.transactions.sql<StateRow>(sql, [
      lastSettledMinute,
      clientId,
      ...ranges,
      firstMinute,
      clientId,
      ...ranges,
      sqlTimestamp(new Date(now)),
      clientId,
      firstDay,
    ]);
    const state: PumpingState = { windows: new Map(), suspected: new Set(), highestByDay: new Map() };
    for (const row of rows) {
      if (row.kind === 'window') {
        state.windows.set(row.name, {
          sent: Number(row.a),
          codesSent: Number(row.b),
          settledCodesSent: Number(row.c),
          verified: Number(row.d),
        });
      } else if (row.kind === 'suspected') state.suspected.add(row.name);
      else state.highestByDay.set(row.name, Number(row.a));
    }
    return state;
  }

  async addDeliveryCounts(smsConfigId: number, added: DeliveryCountAdded[]): Promise<void> {
    if (added.length === 0) return;
    const names = this.deliveryCount;
    await this.transactions.sql(
      this.upsert(names, ['smsConfigId', 'callingCode', 'minute'], ['delivered', 'undelivered'], added.length, 'sum'),
      added.flatMap(({ callingCode, minute, delivered, undelivered }) => [smsConfigId, callingCode, minute, delivered, undelivered]),
    );
  }

  async addPumpingCounts(clientId: number, added: PumpingCountAdded[]): Promise<void> {
    if (added.length === 0) return;
    await this.transactions.sql(
      this.upsert(this.pumpingCount, ['clientId', 'range', 'minute'], ['sent', 'codesSent', 'verified'], added.length, 'sum'),
      added.flatMap(({ range, minute, sent, codesSent, verified }) => [clientId, range, minute, sent, codesSent, verified]),
    );
  }

  async raiseBaseline(clientId: number, day: string, highestSent: number): Promise<void> {
    await this.transactions.sql(this.upsert(this.baseline, ['clientId', 'day'], ['highestSent'], 1, 'highest'), [
      clientId,
      day,
      highestSent,
    ]);
  }

  async addSuspicion({ clientId, range, signals, window, suspectedAt, until }: Suspicion): Promise<void> {
    await this.transactions.manager.getRepository(PumpingRange).insert({
      clientId,
      range,
      signals,
      sent: String(window.sent),
      codesSent: String(window.codesSent),
      verified: String(window.verified),
      suspectedAt: new Date(suspectedAt),
      until: new Date(until),
      liftedAt: null,
    });
  }

  // Adds to the row of the key, or keeps the higher figure; concurrent writers each count (the row's lock orders them).
  private upsert<T extends object>(
    names: SqlNames<T>,
    keys: ReadonlyArray<keyof T & string>,
    figures: ReadonlyArray<keyof T & string>,
    rows: number,
    merge: 'sum' | 'highest',
  ): string {
    const all = [...keys, ...figures];
    const row = `(${all.map(() => '?').join(', ')})`;
    const insert = `INSERT INTO ${names.table} (${names.columns(all)}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}`;
    const mysql = this.transactions.dialect === 'mysql';
    const merged = figures.map((figure) => {
      const column = names.column(figure);
      const added = mysql ? `VALUES(${column})` : `excluded.${column}`;
      if (merge === 'sum') return `${column} = ${column} + ${added}`;
      return `${column} = ${mysql ? 'GREATEST' : 'MAX'}(${column}, ${added})`;
    });
    return mysql
      ? `${insert} ON DUPLICATE KEY UPDATE ${merged.join(', ')}`
      : `${insert} ON CONFLICT (${names.columns(keys)}) DO UPDATE SET ${merged.join(', ')}`;
  }
}
