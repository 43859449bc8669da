import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlNames } from '../database/sql-names';
import { epochMsOf, sqlTimestamp } from '../database/timestamps';
import { Transactions } from '../database/transactions';
import { storedMicros } from '../database/exact-decimal';
import { DeliveryCount } from '../delivery-signals/delivery-count.entity';
import { PumpingRange } from '../delivery-signals/pumping-range.entity';
import { Receipts } from '../delivery-signals/delivery-rate';
import { SmsConfig } from '../sms-config/sms-config.entity';
import { SmsConfigFields, SmsConfigRow } from '../sms-config/sms-config-fields';
import { ClientDaily, ClientRouting, DailyRow, Decimal, Micros, Timestamp, dailyOf, dailySelectList } from './client-routing';
import { RoutableSmsConfig } from './dispatch-routing';
import { ROUTE_CANDIDATE_FIELDS, RouteCandidateDto } from './dto/dispatch-route.dto';

// What a candidate shows of the configuration's columns.
type CandidateShown = Omit<RouteCandidateDto, 'pricePrefix' | 'verifyApiKey'>;

/** What route asks of the delivery signals: the destination's calling code and range, or nulls without one. */
export interface SignalsAsked {
  callingCode: string | null;
  firstMinute: number;
  range: string | null;
  now: number;
}

export interface Routable extends Pick<
  ClientRouting,
  'preferredSmsGateway' | 'allowedDestinations' | 'allowPremiumNumbers' | 'pumpingGuard'
> {
  // For a client in block: a standing suspicion covers the destination's range.
  destinationSuspected: boolean;
  client: ClientDaily;
  smsConfigs: RoutedSmsConfig[];
}

export interface RoutedSmsConfig extends RoutableSmsConfig {
  smsApi: string;
  providerUrl: string | null;
  balanceUrl: string | null;
  apiKeySealed: string | null;
  credentialVersion: number;
  // The destinationPrices entry that priced it, when route was given a destination.
  pricePrefix: string | null;
  // Over DELIVERY_RATE_WINDOW_MS at the destination's calling code; null without one.
  receipts: Receipts | null;
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

/** Route's one read: the client, its configurations, their receipts at the destination and the client's suspected ranges. */
@Injectable()
export class RouteRepository {
  private readonly routableSql: string;
  private readonly routableToSql: string;
  private readonly readCandidate: (row: SmsConfigRow) => CandidateShown;

  constructor(
    private readonly transactions: Transactions,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const client = new SqlNames<ClientRouting>(dataSource, 'Client');
    const smsConfig = new SqlNames(dataSource, SmsConfig);
    const daily = dailySelectList(client);
    const fields = new SmsConfigFields(dataSource);
    const candidateFields = fields.storedFieldsOf(ROUTE_CANDIDATE_FIELDS);
    this.readCandidate = fields.reader(candidateFields);
    const shown = fields.columnsOf(candidateFields);
    const routed = {
      columns: [...new Set<keyof SmsConfig>([...ROUTING_COLUMNS, ...shown.columns])],
      twins: [...new Set<keyof SmsConfig>([...ROUTING_TWINS, ...shown.twins])],
    };
    const receipts = new SqlNames(dataSource, DeliveryCount);
    const suspicions = new SqlNames(dataSource, PumpingRange);
    const receiptSum = (property: 'delivered' | 'undelivered') =>
      `(SELECT SUM(${receipts.column(property, 'd')}) FROM ${receipts.table} d WHERE ${receipts.column('smsConfigId', 'd')} = ${smsConfig.column('id', 's')}
        AND ${receipts.column('callingCode', 'd')} = ? AND ${receipts.column('minute', 'd')} >= ?) AS ${property}`;
    // Read only for a client in block: 1 when the destination's range has a standing suspicion.
    const suspicion = `CASE WHEN ${client.column('pumpingGuard', 'c')} = 'block' THEN (SELECT COUNT(*) FROM ${suspicions.table} p
        WHERE ${suspicions.column('clientId', 'p')} = ${client.column('id', 'c')} AND ${suspicions.column('range', 'p')} = ?
        AND ${suspicions.column('until', 'p')} > ? AND ${suspicions.column('liftedAt', 'p')} IS NULL) END AS suspicion`;
    const routableWith = (
      signals: string,
    ) => `SELECT ${client.selectList('c', ['preferredSmsGateway', 'allowedDestinations', 'pumpingGuard', 'allowPremiumNumbers'])}, ${daily}, ${smsConfig.selectList('s', routed.columns)}, ${smsConfig.integerTextList('s', routed.twins)},
      ${signals}
      FROM ${client.table} c LEFT JOIN ${smsConfig.table} s ON ${smsConfig.column('clientId', 's')} = ${client.column('id', 'c')}
      WHERE ${client.column('id', 'c')} = ?`;
    // Without a destination there is nothing to read the signals for: correlated subqueries cost even when they find nothing.
    this.routableSql = routableWith('NULL AS delivered, NULL AS undelivered, NULL AS suspicion');
    this.routableToSql = routableWith(`${receiptSum('delivered')}, ${receiptSum('undelivered')}, ${suspicion}`);
  }

  async routable(clientId: number, signals: SignalsAsked): Promise<Routable | null> {
    type Row = Pick<ClientRouting, 'preferredSmsGateway' | 'pumpingGuard'> &
      DailyRow &
      SmsConfigRow & {
        // simple-json's text, read raw.
        allowedDestinations: string | null;
        allowPremiumNumbers: number | boolean;
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
        // SUM() of BIGINT: text on MySQL.
        delivered: number | string | null;
        undelivered: number | string | null;
        suspicion: number | string | null;
      };
    const { callingCode, firstMinute, range, now } = signals;
    const rows =
      range === null
        ? await this.transactions.sql<Row>(this.routableSql, [clientId])
        : await this.transactions.sql<Row>(this.routableToSql, [
            ...[callingCode, firstMinute, callingCode, firstMinute],
            range,
            sqlTimestamp(new Date(now)),
            clientId,
          ]);
    if (rows.length === 0) return null;
    const [first] = rows;
    return {
      preferredSmsGateway: first.preferredSmsGateway,
      allowedDestinations: first.allowedDestinations === null ? null : (JSON.parse(first.allowedDestinations) as string[]),
      allowPremiumNumbers: Boolean(Number(first.allowPremiumNumbers)),
      pumpingGuard: first.pumpingGuard,
      destinationSuspected: Number(first.suspicion ?? 0) > 0,
      client: dailyOf(first),
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
          receipts: callingCode === null ? null : { delivered: Number(row.delivered ?? 0), undelivered: Number(row.undelivered ?? 0) },
          shown: this.readCandidate(row),
        })),
    };
  }
}
