import { ConflictException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Not } from 'typeorm';
import { amountOf, microsOf } from '../database/exact-decimal';
import { SqlNames } from '../database/sql-names';
import { Transactions } from '../database/transactions';
import { MAX_PREFIX_DIGITS } from '../common/validation/destination-limits';
import { DestinationPrice } from './destination-price.entity';
import { DestinationPriceDto, RequestedDestinationPrice } from './dto/destination-price.dto';
import { MAX_DESTINATION_PRICES_PER_CLIENT } from './sms-config-limit';

export interface PrefixPrice {
  smsConfigId: number;
  prefix: string;
  perSmsCostMicros: bigint;
}

@Injectable()
export class DestinationPriceRepository {
  // Plain SQL, prepared on MySQL: route with a destination runs it beside its read of the configurations.
  private readonly ofClientSql: string;
  private readonly ofSmsConfigSql: string;
  private readonly micros: string;

  constructor(
    private readonly transactions: Transactions,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const price = new SqlNames(dataSource, DestinationPrice);
    const select = `SELECT ${price.selectList('p', ['smsConfigId', 'prefix'])}, ${price.integerTextList('p', ['perSmsCostMicros'])} FROM ${price.table} p`;
    // A destination has at least 7 digits: always 7 prefixes, so one statement to prepare.
    const anyPrefix = `${price.column('prefix', 'p')} IN (${Array.from({ length: MAX_PREFIX_DIGITS }, () => '?').join(', ')})`;
    this.ofClientSql = `${select} WHERE ${price.column('clientId', 'p')} = ? AND ${anyPrefix}`;
    this.ofSmsConfigSql = `${select} WHERE ${price.column('smsConfigId', 'p')} = ? AND ${anyPrefix}`;
    this.micros = price.integerText('perSmsCostMicros', 'p');
  }

  // Inside the change's transaction, after lockOwner(): its first plain read, so it sees every change committed before the lock.
  async assertRoomFor(clientId: number, entries: number, replacing?: number): Promise<void> {
    if (entries === 0) return;
    const others = await this.transactions.manager
      .getRepository(DestinationPrice)
      .count({ where: { clientId, ...(replacing === undefined ? {} : { smsConfigId: Not(replacing) }) } });
    if (others + entries > MAX_DESTINATION_PRICES_PER_CLIENT) {
      throw new ConflictException(
        `A client's SMS configurations can have at most ${MAX_DESTINATION_PRICES_PER_CLIENT} destination prices in all ` +
          `(${others} on its other configurations, ${entries} sent)`,
      );
    }
  }

  // In the transaction of the configuration's change.
  async replace(smsConfigId: number, clientId: number, prices: readonly RequestedDestinationPrice[]): Promise<void> {
    const manager = this.transactions.manager;
    await manager.delete(DestinationPrice, { smsConfigId });
    if (prices.length === 0) return;
    const rows = prices.map(({ prefix, perSmsCost }, position) => ({
      smsConfigId,
      clientId,
      prefix,
      position,
      perSmsCost,
      perSmsCostMicros: microsOf(perSmsCost).toString(),
    }));
    await manager.createQueryBuilder().insert().into(DestinationPrice).values(rows).updateEntity(false).execute();
  }

  async listFor(smsConfigId: number): Promise<DestinationPriceDto[] | null> {
    const rows = await this.transactions.manager
      .getRepository(DestinationPrice)
      .createQueryBuilder('p')
      .select('p.prefix', 'prefix')
      .addSelect(this.micros, 'micros')
      .where({ smsConfigId })
      .orderBy('p.position')
      .getRawMany<{ prefix: string; micros: string }>();
    return rows.length === 0 ? null : rows.map(({ prefix, micros }) => ({ prefix, perSmsCost: amountOf(BigInt(micros)) }));
  }

  // The rows of these prefixes (a destination's seven) on every configuration of the client: seven index ranges.
  ofClient(clientId: number, prefixes: readonly string[]): Promise<PrefixPrice[]> {
    return this.prefixPrices(this.ofClientSql, clientId, prefixes);
  }

  ofSmsConfig(smsConfigId: number, prefixes: readonly string[]): Promise<PrefixPrice[]> {
    return this.prefixPrices(this.ofSmsConfigSql, smsConfigId, prefixes);
  }

  private async prefixPrices(sql: string, owner: number, prefixes: readonly string[]): Promise<PrefixPrice[]> {
    type Row = { smsConfigId: number | string; prefix: string; perSmsCostMicros: string };
    const rows = await this.transactions.sql<Row>(sql, [owner, ...prefixes]);
    return rows.map((row) => ({
      smsConfigId: Number(row.smsConfigId),
      prefix: row.prefix,
      perSmsCostMicros: BigInt(row.perSmsCostMicros),
    }));
  }
}
