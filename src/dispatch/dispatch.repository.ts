import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Not } from 'typeorm';
import { SqlNames } from '../database/sql-names';
import { epochMsOf, sqlTimestamp } from '../database/timestamps';
import { Transactions } from '../database/transactions';
import { decimalTextOf, storedMicros } from '../database/exact-decimal';
import { SmsConfig } from '../sms-config/sms-config.entity';
import { SmsConfigRow, StoredSmsConfigFields, columnsOf, fieldReader, storedFieldsOf } from '../sms-config/sms-config-fields';
import { SmsConfigRepository } from '../sms-config/sms-config.repository';
import { RoutableSmsConfig } from './dispatch-routing';
import { ROUTE_CANDIDATE_FIELDS } from './dto/dispatch-route.dto';
import { ProviderHealth } from './provider-health';

// Named, not imported: client/ reads sms-config/, and dispatch/ reads both tables.
interface ClientRouting {
  id: number;
  preferredSmsGateway: string | null;
  allowedDestinations: string[] | null;
}

const CANDIDATE_STORED_FIELDS = storedFieldsOf(ROUTE_CANDIDATE_FIELDS);
const readCandidate = fieldReader(CANDIDATE_STORED_FIELDS);

export interface RoutedSmsConfig extends RoutableSmsConfig {
  smsApi: string;
  providerUrl: string | null;
  balanceUrl: string | null;
  apiKeySealed: string | null;
  credentialVersion: number;
  // The destinationPrices entry that priced it, when route was given a destination.
  pricePrefix: string | null;
  shown: Pick<StoredSmsConfigFields, (typeof CANDIDATE_STORED_FIELDS)[number]>;
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

  constructor(
    private readonly transactions: Transactions,
    private readonly smsConfigs: SmsConfigRepository,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const client = new SqlNames<ClientRouting>(dataSource, 'Client');
    const smsConfig = new SqlNames(dataSource, SmsConfig);
    const forUpdate = transactions.dialect === 'mysql' ? ' FOR UPDATE' : '';
    const shown = columnsOf(CANDIDATE_STORED_FIELDS);
    const routed = {
      columns: [...new Set<keyof SmsConfig>([...ROUTING_COLUMNS, ...shown.columns])],
      twins: [...new Set<keyof SmsConfig>([...ROUTING_TWINS, ...shown.twins])],
    };
    this.routableSql = `SELECT ${client.selectList('c', ['preferredSmsGateway', 'allowedDestinations'])}, ${smsConfig.selectList('s', routed.columns)}, ${smsConfig.integerTextList('s', routed.twins)}
      FROM ${client.table} c LEFT JOIN ${smsConfig.table} s ON ${smsConfig.column('clientId', 's')} = ${client.column('id', 'c')}
      WHERE ${client.column('id', 'c')} = ?`;
    this.reportedSql = `SELECT ${smsConfig.selectList('s', [
      ['id', 'smsConfigId'],
      'clientId',
      'providerName',
      'balance',
      'perSmsCost',
      'lowBalanceThreshold',
      'consecutiveFailures',
      'unhealthyUntil',
    ])}, ${smsConfig.integerTextList('s', ['balanceMicros', 'perSmsCostMicros', 'lowBalanceThresholdMicros'])} FROM ${smsConfig.table} s WHERE ${smsConfig.column('id', 's')} = ?${forUpdate}`;
    this.reportSql = `UPDATE ${smsConfig.table} SET ${smsConfig.column('balance')} = ?, ${smsConfig.column('balanceMicros')} = ?,
      ${smsConfig.column('consecutiveFailures')} = ?,
      ${smsConfig.column('unhealthyUntil')} = ? WHERE ${smsConfig.column('id')} = ?`;
  }

  async routable(clientId: number): Promise<(Omit<ClientRouting, 'id'> & { smsConfigs: RoutedSmsConfig[] }) | null> {
    type Row = Pick<ClientRouting, 'preferredSmsGateway'> &
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
          shown: readCandidate(row),
        })),
    };
  }

  // The client's row first, as every change of a client's configurations locks it, so audit entries commit in order.
  async lockReported(smsConfigId: number): Promise<ReportedSmsConfig | null> {
    // A configuration never changes client: its client is known before either lock is taken.
    const owner = await this.transactions.manager
      .getRepository(SmsConfig)
      .findOne({ select: { clientId: true }, where: { id: smsConfigId } });
    if (owner === null) return null;
    await this.smsConfigs.lockOwner(owner.clientId);
    type Row = Omit<ReportedSmsConfig, 'balanceMicros' | 'perSmsCostMicros' | 'lowBalanceThresholdMicros' | 'unhealthyUntil'> & {
      balance: Decimal;
      perSmsCost: Decimal;
      lowBalanceThreshold: Decimal | null;
      balanceMicros: Micros;
      perSmsCostMicros: Micros;
      lowBalanceThresholdMicros: Micros;
      unhealthyUntil: Timestamp;
    };
    const [row] = await this.transactions.sql<Row>(this.reportedSql, [smsConfigId]);
    // Deleted between the two reads.
    if (row === undefined) return null;
    return {
      smsConfigId: Number(row.smsConfigId),
      clientId: Number(row.clientId),
      providerName: row.providerName,
      balanceMicros: storedMicros(row.balanceMicros, row.balance)!,
      perSmsCostMicros: storedMicros(row.perSmsCostMicros, row.perSmsCost)!,
      lowBalanceThresholdMicros: storedMicros(row.lowBalanceThresholdMicros, row.lowBalanceThreshold),
      consecutiveFailures: Number(row.consecutiveFailures),
      unhealthyUntil: epochMsOf(row.unhealthyUntil),
    };
  }

  async recordReport(smsConfigId: number, state: ReportedState): Promise<void> {
    const unhealthyUntil = state.unhealthyUntil === null ? null : sqlTimestamp(new Date(state.unhealthyUntil));
    const balance = [decimalTextOf(state.balanceMicros), state.balanceMicros.toString()];
    const values = [...balance, state.consecutiveFailures, unhealthyUntil, smsConfigId];
    await this.transactions.sql(this.reportSql, values);
  }

  countUnhealthy(): Promise<number> {
    return this.transactions.manager.getRepository(SmsConfig).count({ where: { unhealthyUntil: Not(IsNull()) } });
  }
}
