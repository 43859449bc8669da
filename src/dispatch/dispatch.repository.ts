import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Not } from 'typeorm';
import { SqlNames } from '../database/sql-names';
import { epochMsOf, sqlTimestamp } from '../database/timestamps';
import { Transactions } from '../database/transactions';
import { decimalTextOf, storedMicros } from '../database/exact-decimal';
import { SmsConfig } from '../sms-config/sms-config.entity';
import { SmsConfigFields, SmsConfigRow } from '../sms-config/sms-config-fields';
import { DailyLimits, DailyUsage } from './daily-usage';
import { RoutableSmsConfig } from './dispatch-routing';
import { ROUTE_CANDIDATE_FIELDS, RouteCandidateDto } from './dto/dispatch-route.dto';
import { ProviderHealth } from './provider-health';

// Named, not imported: client/ reads sms-config/, and dispatch/ reads both tables.
interface ClientRouting {
  id: number;
  preferredSmsGateway: string | null;
  allowedDestinations: string[] | null;
  dailySpendLimitMicros: string | null;
  dailySmsLimit: number | null;
  usageDay: string | null;
  spentToday: number;
  spentTodayMicros: string;
  sentToday: string;
  spendLimitReachedOn: string | null;
  smsLimitReachedOn: string | null;
}

const DAILY_COLUMNS = ['dailySmsLimit', 'usageDay', 'spendLimitReachedOn', 'smsLimitReachedOn'] as const satisfies ReadonlyArray<
  keyof ClientRouting
>;
const DAILY_INTEGERS = ['dailySpendLimitMicros', 'spentTodayMicros', 'sentToday'] as const satisfies ReadonlyArray<keyof ClientRouting>;
type DailyRow = Pick<ClientRouting, (typeof DAILY_COLUMNS)[number]> & Record<(typeof DAILY_INTEGERS)[number], string | null>;

export type ClientDaily = DailyLimits & DailyUsage;

// What a candidate shows of the configuration's columns.
type CandidateShown = Omit<RouteCandidateDto, 'pricePrefix' | 'verifyApiKey'>;

export interface RoutedSmsConfig extends RoutableSmsConfig {
  smsApi: string;
  providerUrl: string | null;
  balanceUrl: string | null;
  apiKeySealed: string | null;
  credentialVersion: number;
  // The destinationPrices entry that priced it, when route was given a destination.
  pricePrefix: string | null;
  shown: CandidateShown;
}

const ROUTING_COLUMNS = [
  'id',
  'providerName',
  'smsApi',
  'providerUrl',
  'balanceUrl',
  'smsType',
  'balance',
  'perSmsCost',
  'isActive',
  'consecutiveFailures',
  'unhealthyUntil',
  'apiKeySealed',
  'credentialVersion',
] as const satisfies ReadonlyArray<keyof SmsConfig>;
const ROUTING_TWINS = ['balanceMicros', 'perSmsCostMicros'] as const satisfies ReadonlyArray<keyof SmsConfig>;

export interface ReportedSmsConfig extends ProviderHealth {
  smsConfigId: number;
  clientId: number;
  client: ClientDaily;
  providerName: string;
  balanceMicros: bigint;
  perSmsCostMicros: bigint;
  lowBalanceThresholdMicros: bigint | null;
}

export interface ReportedState extends ProviderHealth {
  balanceMicros: bigint;
}

type Decimal = string | number;
// Null in rows the previous release wrote.
type Micros = string | null;
type Timestamp = Date | string | null;

@Injectable()
export class DispatchRepository {
  private readonly routableSql: string;
  private readonly reportedSql: string;
  private readonly reportSql: string;
  private readonly usageSql: string;
  private readonly reportWithUsageSql: string | null;
  private readonly readCandidate: (row: SmsConfigRow) => CandidateShown;

  constructor(
    private readonly transactions: Transactions,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const client = new SqlNames<ClientRouting>(dataSource, 'Client');
    const smsConfig = new SqlNames(dataSource, SmsConfig);
    const forUpdate = transactions.dialect === 'mysql' ? ' FOR UPDATE' : '';
    const fields = new SmsConfigFields(dataSource);
    const candidateFields = fields.storedFieldsOf(ROUTE_CANDIDATE_FIELDS);
    this.readCandidate = fields.reader(candidateFields);
    const shown = fields.columnsOf(candidateFields);
    const routed = {
      columns: [...new Set<keyof SmsConfig>([...ROUTING_COLUMNS, ...shown.columns])],
      twins: [...new Set<keyof SmsConfig>([...ROUTING_TWINS, ...shown.twins])],
    };
    const daily = `${client.selectList('c', DAILY_COLUMNS)}, ${client.integerTextList('c', DAILY_INTEGERS)}`;
    this.routableSql = `SELECT ${client.selectList('c', ['preferredSmsGateway', 'allowedDestinations'])}, ${daily}, ${smsConfig.selectList('s', routed.columns)}, ${smsConfig.integerTextList('s', routed.twins)}
      FROM ${client.table} c LEFT JOIN ${smsConfig.table} s ON ${smsConfig.column('clientId', 's')} = ${client.column('id', 'c')}
      WHERE ${client.column('id', 'c')} = ?`;
    // The client's row first (it comes first in the join: MySQL locks const rows in that order), as every change of a
    // client's configurations locks it, so audit entries commit in order.
    this.reportedSql = `SELECT ${daily}, ${smsConfig.selectList('s', [
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

  async routable(
    clientId: number,
  ): Promise<
    (Pick<ClientRouting, 'preferredSmsGateway' | 'allowedDestinations'> & { client: ClientDaily; smsConfigs: RoutedSmsConfig[] }) | null
  > {
    type Row = Pick<ClientRouting, 'preferredSmsGateway'> &
      DailyRow &
      SmsConfigRow & {
        // simple-json's text, read raw.
        allowedDestinations: string | null;
        id: number | null;
        providerName: string;
        smsApi: string;
        providerUrl: string | null;
        balanceUrl: string | null;
        smsType: string | null;
        balance: Decimal;
        perSmsCost: Decimal;
        balanceMicros: Micros;
        perSmsCostMicros: Micros;
        isActive: number | boolean;
        consecutiveFailures: number;
        unhealthyUntil: Timestamp;
        apiKeySealed: string | null;
        credentialVersion: number;
      };
    const rows = await this.transactions.sql<Row>(this.routableSql, [clientId]);
    if (rows.length === 0) return null;
    const allowedDestinations = rows[0].allowedDestinations;
    return {
      preferredSmsGateway: rows[0].preferredSmsGateway,
      allowedDestinations: allowedDestinations === null ? null : (JSON.parse(allowedDestinations) as string[]),
      client: dailyOf(rows[0]),
      smsConfigs: rows
        .filter((row) => row.id !== null)
        .map((row) => ({
          smsConfigId: Number(row.id),
          providerName: row.providerName,
          smsApi: row.smsApi,
          providerUrl: row.providerUrl,
          balanceUrl: row.balanceUrl,
          smsType: row.smsType,
          balanceMicros: storedMicros(row.balanceMicros, row.balance)!,
          perSmsCostMicros: storedMicros(row.perSmsCostMicros, row.perSmsCost)!,
          isActive: Boolean(Number(row.isActive)),
          consecutiveFailures: Number(row.consecutiveFailures),
          unhealthyUntil: epochMsOf(row.unhealthyUntil),
          apiKeySealed: row.apiKeySealed,
          credentialVersion: Number(row.credentialVersion),
          pricePrefix: null,
          shown: this.readCandidate(row),
        })),
    };
  }

  // Both rows locked by one statement, so that the locks are held for as few round trips as possible.
  async lockReported(smsConfigId: number): Promise<ReportedSmsConfig | null> {
    // A configuration never changes client: its client is known before either lock is taken.
    const owner = await this.transactions.manager
      .getRepository(SmsConfig)
      .findOne({ select: { clientId: true }, where: { id: smsConfigId } });
    if (owner === null) return null;
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
    const [row] = await this.transactions.sql<Row>(this.reportedSql, [owner.clientId, smsConfigId]);
    // Deleted between the two reads.
    if (row === undefined) return null;
    return {
      smsConfigId: Number(row.smsConfigId),
      clientId: Number(row.clientId),
      client: dailyOf(row),
      providerName: row.providerName,
      balanceMicros: storedMicros(row.balanceMicros, row.balance)!,
      perSmsCostMicros: storedMicros(row.perSmsCostMicros, row.perSmsCost)!,
      lowBalanceThresholdMicros: storedMicros(row.lowBalanceThresholdMicros, row.lowBalanceThreshold),
      consecutiveFailures: Number(row.consecutiveFailures),
      unhealthyUntil: epochMsOf(row.unhealthyUntil),
    };
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

function dailyOf(row: DailyRow): ClientDaily {
  return {
    dailySpendLimitMicros: row.dailySpendLimitMicros === null ? null : BigInt(row.dailySpendLimitMicros),
    dailySmsLimit: row.dailySmsLimit === null ? null : Number(row.dailySmsLimit),
    usageDay: row.usageDay,
    spentTodayMicros: BigInt(row.spentTodayMicros ?? 0),
    sentToday: Number(row.sentToday ?? 0),
    spendLimitReachedOn: row.spendLimitReachedOn,
    smsLimitReachedOn: row.smsLimitReachedOn,
  };
}
