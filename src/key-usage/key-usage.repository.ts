import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlNames } from '../database/sql-names';
import { sqlTimestamp } from '../database/timestamps';
import { Transactions } from '../database/transactions';

/** The client's columns this repository writes; named, not imported: client/ authenticates through auth/, which notes here. */
interface ClientKeyUsage {
  secretKeyDigest: string;
  previousSecretKeyDigest: string | null;
  secretKeyLastUsedAt: Date | null;
  previousSecretKeyLastUsedAt: Date | null;
}

/**
 * Keys per statement. SQLite allows 500 SELECTs in one UNION ALL; on MariaDB, 20,000 keys took 220 ms in statements
 * of 1,000 against 345 ms in statements of 400 (about 100 kB each, far under max_allowed_packet).
 */
const KEYS_PER_STATEMENT = { mysql: 1000, sqlite: 400 } as const;

/**
 * Writes when keys were last used, for each key as the client's current key or as its previous one, in a few statements
 * whatever the number of keys. A time only ever moves forward (GREATEST): instances write the same clients in any order.
 * SQL, as the query builder has no UPDATE joined to a list of values.
 */
@Injectable()
export class KeyUsageRepository {
  private readonly statements: Array<(count: number) => string>;
  private readonly keysPerStatement: number;

  constructor(
    private readonly transactions: Transactions,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const client = new SqlNames<ClientKeyUsage>(dataSource, 'Client');
    const mysql = transactions.dialect === 'mysql';
    this.keysPerStatement = KEYS_PER_STATEMENT[transactions.dialect];
    const uses = (count: number) =>
      Array.from({ length: count }, (_, index) =>
        mysql
          ? `SELECT CONVERT(? USING ascii)${index === 0 ? ' AS digest' : ''}, CAST(? AS DATETIME(3))${index === 0 ? ' AS used_at' : ''}`
          : `SELECT ?${index === 0 ? ' AS digest' : ''}, ?${index === 0 ? ' AS used_at' : ''}`,
      ).join(' UNION ALL ');
    const forKey = (
      digest: 'secretKeyDigest' | 'previousSecretKeyDigest',
      lastUsedAt: 'secretKeyLastUsedAt' | 'previousSecretKeyLastUsedAt',
    ) =>
      mysql
        ? (count: number) =>
            `UPDATE ${client.table} c JOIN (${uses(count)}) u ON ${client.column(digest, 'c')} = u.digest
             SET ${client.column(lastUsedAt, 'c')} = GREATEST(COALESCE(${client.column(lastUsedAt, 'c')}, u.used_at), u.used_at)`
        : (count: number) =>
            `UPDATE ${client.table} SET ${client.column(lastUsedAt)} = MAX(COALESCE(${client.column(lastUsedAt)}, u.used_at), u.used_at)
             FROM (${uses(count)}) AS u WHERE ${client.table}.${client.column(digest)} = u.digest`;
    this.statements = [forKey('secretKeyDigest', 'secretKeyLastUsedAt'), forKey('previousSecretKeyDigest', 'previousSecretKeyLastUsedAt')];
  }

  /** Each key's latest use (epoch ms), written where the key is: a client's current key, or its previous one. */
  async recordLastUses(lastUses: Map<string, number>): Promise<void> {
    const entries = [...lastUses];
    for (let start = 0; start < entries.length; start += this.keysPerStatement) {
      const chunk = entries.slice(start, start + this.keysPerStatement);
      const values = chunk.flatMap(([digest, usedAt]) => [digest, sqlTimestamp(new Date(usedAt))]);
      for (const statement of this.statements) await this.transactions.manager.query(statement(chunk.length), values);
    }
  }
}
