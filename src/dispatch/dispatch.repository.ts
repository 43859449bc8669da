import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Not } from 'typeorm';
import { SqlNames } from '../database/sql-names';
import { epochMsOf, sqlTimestamp } from '../database/timestamps';
import { Transactions } from '../database/transactions';
import { decimalTextOf, storedMicros } from '../database/exact-decimal';
import { PumpingGuard } from '../delivery-signals/pumping-guard';
import { SmsConfig } from '../sms-config/sms-config.entity';
import { ClientDaily, ClientRouting, DailyRow, Decimal, Micros, Timestamp, dailyOf, dailySelectList } from './client-routing';
import { DailyUsage } from './daily-usage';
import { ProviderHealth } from './provider-health';

export interface ReportedSmsConfig extends ProviderHealth {
  smsConfigId: number;
  clientId: number;
  pumpingGuard: PumpingGuard;
  client: ClientDaily;
  providerName: string;
  balanceMicros: bigint;
  perSmsCostMicros: bigint;
  lowBalanceThresholdMicros: bigint | null;
}

export interface ReportedState extends ProviderHealth {
  balanceMicros: bigint;
}

// About 3 MB at most: one entry per configuration reported on, which saves a read per report.
const MAX_KNOWN_OWNERS = 100_000;

@Injectable()
export class DispatchRepository {
  private readonly owners = new Map<number, number>();
  private readonly reportedSql: string;
  private readonly reportSql: string;
  private readonly usageSql: string;
  private readonly reportWithUsageSql: string | null;

  constructor(
    private readonly transactions: Transactions,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const client = new SqlNames<ClientRouting>(dataSource, 'Client');
    const smsConfig = new SqlNames(dataSource, SmsConfig);
    const forUpdate = transactions.dialect === 'mysql' ? ' FOR UPDATE' : '';
    const daily = dailySelectList(client);
    // The client's row first (it comes first in the join: MySQL locks const rows in that order), as every change of a
    // client's configurations locks it, so audit entries commit in order.
    this.reportedSql = `SELECT ${daily}, ${client.selectList('c', ['pumpingGuard'])}, ${smsConfig.selectList('s', [
      ['id', 'smsConfigId'],
      'clientId',
      'providerName',
      'balance',
      'perSmsCost',
      'lowBalanceThreshold',
      'consecutiveFailures',
      'unhealthyUntil',
    ])}, ${smsConfig.integerTextList('s', ['balanceMicros', 'perSmsCostMicros', 'lowBalanceThresholdMicros'])}
      FROM ${client.table} c JOIN ${smsConfig.table} s ON ${smsConfig.column('clientId', 's')} = ${client.column('id', 'c')}
      WHERE ${client.column('id', 'c')} = ? AND ${smsConfig.column('id', 's')} = ?${forUpdate}`;
    const reportSet = (alias?: string) =>
      (['balance', 'balanceMicros', 'consecutiveFailures', 'unhealthyUntil'] as const).map(
        (property) => `${smsConfig.column(property, alias)} = ?`,
      );
    const usageSet = (alias?: string) =>
      (['usageDay', 'spentToday', 'spentTodayMicros', 'sentToday', 'spendLimitReachedOn', 'smsLimitReachedOn'] as const).map(
        (property) => `${client.column(property, alias)} = ?`,
      );
    this.reportSql = `UPDATE ${smsConfig.table} SET ${reportSet().join(', ')} WHERE ${smsConfig.column('id')} = ?`;
    this.usageSql = `UPDATE ${client.table} SET ${usageSet().join(', ')} WHERE ${client.column('id')} = ?`;
    // One statement while the locks are held; SQLite, which has no multi-table UPDATE, runs one transaction at a time anyway.
    this.reportWithUsageSql =
      transactions.dialect === 'mysql'
        ? `UPDATE ${client.table} c JOIN ${smsConfig.table} s ON ${smsConfig.column('clientId', 's')} = ${client.column('id', 'c')}
      SET ${[...reportSet('s'), ...usageSet('c')].join(', ')} WHERE ${client.column('id', 'c')} = ? AND ${smsConfig.column('id', 's')} = ?`
        : null;
  }

  // Both rows locked by one statement, so that the locks are held for as few round trips as possible.
  async lockReported(smsConfigId: number): Promise<ReportedSmsConfig | null> {
    // A configuration never changes client: its client is known before either lock is taken, and kept.
    const known = this.owners.get(smsConfigId);
    const clientId = known ?? (await this.ownerOf(smsConfigId));
    if (clientId === null) return null;
    type Row = DailyRow &
      Omit<ReportedSmsConfig, 'client' | 'balanceMicros' | 'perSmsCostMicros' | 'lowBalanceThresholdMicros' | 'unhealthyUntil'> & {
        balance: Decimal;
        perSmsCost: Decimal;
        lowBalanceThreshold: Decimal | null;
        balanceMicros: Micros;
        perSmsCostMicros: Micros;
        lowBalanceThresholdMicros: Micros;
        unhealthyUntil: Timestamp;
      };
    const [row] = await this.transactions.sql<Row>(this.reportedSql, [clientId, smsConfigId]);
    if (row === undefined) {
      this.owners.delete(smsConfigId);
      // Deleted since, or, on SQLite, deleted and its id given again to another client's configuration.
      return known === undefined ? null : this.lockReported(smsConfigId);
    }
    if (this.owners.size >= MAX_KNOWN_OWNERS) this.owners.clear();
    this.owners.set(smsConfigId, clientId);
    return {
      smsConfigId: Number(row.smsConfigId),
      clientId: Number(row.clientId),
      pumpingGuard: row.pumpingGuard,
      client: dailyOf(row),
      providerName: row.providerName,
      balanceMicros: storedMicros(row.balanceMicros, row.balance)!,
      perSmsCostMicros: storedMicros(row.perSmsCostMicros, row.perSmsCost)!,
      lowBalanceThresholdMicros: storedMicros(row.lowBalanceThresholdMicros, row.lowBalanceThreshold),
      consecutiveFailures: Number(row.consecutiveFailures),
      unhealthyUntil: epochMsOf(row.unhealthyUntil),
    };
  }

  private async ownerOf(smsConfigId: number): Promise<number | null> {
    const found = await this.transactions.manager
      .getRepository(SmsConfig)
      .findOne({ select: { clientId: true }, where: { id: smsConfigId } });
    return found?.clientId ?? null;
  }

  // The client's daily sums too when the report counted messages.
  async recordReport(reported: ReportedSmsConfig, state: ReportedState, usage: DailyUsage | null): Promise<void> {
    const unhealthyUntil = state.unhealthyUntil === null ? null : sqlTimestamp(new Date(state.unhealthyUntil));
    const report = [decimalTextOf(state.balanceMicros), state.balanceMicros.toString(), state.consecutiveFailures, unhealthyUntil];
    if (usage === null) return void (await this.transactions.sql(this.reportSql, [...report, reported.smsConfigId]));
    const spent = [decimalTextOf(usage.spentTodayMicros), usage.spentTodayMicros.toString()];
    const counted = [usage.usageDay, ...spent, usage.sentToday, usage.spendLimitReachedOn, usage.smsLimitReachedOn];
    if (this.reportWithUsageSql !== null) {
      await this.transactions.sql(this.reportWithUsageSql, [...report, ...counted, reported.clientId, reported.smsConfigId]);
      return;
    }
    await this.transactions.sql(this.reportSql, [...report, reported.smsConfigId]);
    await this.transactions.sql(this.usageSql, [...counted, reported.clientId]);
  }

  countUnhealthy(): Promise<number> {
    return this.transactions.manager.getRepository(SmsConfig).count({ where: { unhealthyUntil: Not(IsNull()) } });
  }
}
