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

/** The client's columns routing reads; named, not imported: client/ reads sms-config/, and dispatch/ reads both tables. */
interface ClientRouting {
  id: number;
  preferredSmsGateway: string | null;
}

const CANDIDATE_STORED_FIELDS = storedFieldsOf(ROUTE_CANDIDATE_FIELDS);
const readCandidate = fieldReader(CANDIDATE_STORED_FIELDS);

/** A configuration as routing offers it: what it weighs, what its candidate shows, and what its token is issued for. */
export interface RoutedSmsConfig extends RoutableSmsConfig {
  smsApi: string;
  /** With smsApi, where its messages and credentials go: approval judges the three hosts. */
  providerUrl: string | null;
  balanceUrl: string | null;
  apiKeySealed: string | null;
  credentialVersion: number;
  /** Its stored fields as its candidate shows them (ROUTE_CANDIDATE_FIELDS). */
  shown: Pick<StoredSmsConfigFields, (typeof CANDIDATE_STORED_FIELDS)[number]>;
}

/** What routing weighs, approval judges and a token is issued for, beside what a candidate shows. */
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

/** A configuration as a report finds it, its row locked: what the report changes and what it compares. */
export interface ReportedSmsConfig extends ProviderHealth {
  smsConfigId: number;
  clientId: number;
  providerName: string;
  balanceMicros: bigint;
  perSmsCostMicros: bigint;
  lowBalanceThresholdMicros: bigint | null;
}

/** What a report writes. */
export interface ReportedState extends ProviderHealth {
  balanceMicros: bigint;
}

type Decimal = string | number;
/** A BIGINT twin as read: its digits; null in rows the previous release wrote. */
type Micros = string | null;
type Timestamp = Date | string | null;

/**
 * Dispatch's reads and writes of the configurations. Routing reads a client with all its configurations in one indexed
 * read; a report locks the configuration's client, then the configuration, as every change of a client's
 * configurations does (so that their audit entries commit in order). Both read each amount's exact twin as text, with
 * its DECIMAL (storedMicros): a balance debited to more than a double's 15 digits (99999999999.99999) stays exact, on
 * SQLite too.
 */
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
    this.routableSql = `SELECT ${client.selectList('c', ['preferredSmsGateway'])}, ${smsConfig.selectList('s', routed.columns)}, ${smsConfig.integerTextList('s', routed.twins)}
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

  /** The client's preferred gateway and every configuration it has, by id; null when there is no such client. */
  async routable(clientId: number): Promise<{ preferredSmsGateway: string | null; smsConfigs: RoutedSmsConfig[] } | null> {
    type Row = Pick<ClientRouting, 'preferredSmsGateway'> &
      SmsConfigRow & {
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
    return {
      preferredSmsGateway: rows[0].preferredSmsGateway,
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
          shown: readCandidate(row),
        })),
    };
  }

  /**
   * Inside the report's transaction: the configuration, its client's row then its own locked until the commit (MySQL;
   * SQLite transactions take turns anyway); null when there is no such configuration.
   */
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

  /** Writes the state a report left, inside its transaction; the balance in both its columns (DECIMAL text, millionths). */
  async recordReport(smsConfigId: number, state: ReportedState): Promise<void> {
    const unhealthyUntil = state.unhealthyUntil === null ? null : sqlTimestamp(new Date(state.unhealthyUntil));
    const balance = [decimalTextOf(state.balanceMicros), state.balanceMicros.toString()];
    const values = [...balance, state.consecutiveFailures, unhealthyUntil, smsConfigId];
    await this.transactions.sql(this.reportSql, values);
  }

  /** Configurations not healthy (skipped, or offered again and not yet sent through), over every client. */
  countUnhealthy(): Promise<number> {
    return this.transactions.manager.getRepository(SmsConfig).count({ where: { unhealthyUntil: Not(IsNull()) } });
  }
}
