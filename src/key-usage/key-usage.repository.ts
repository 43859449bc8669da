import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlNames } from '../database/sql-names';
import { sqlTimestamp } from '../database/timestamps';
import { Transactions } from '../database/transactions';

// Named, not imported: client/ authenticates through auth/, which notes here.
interface ClientKeyUsage {
  secretKeyDigest: string;
  previousSecretKeyDigest: string | null;
  secretKeyLastUsedAt: Date | null;
  previousSecretKeyLastUsedAt: Date | null;
}

// SQLite allows 500 SELECTs in one UNION ALL; on MariaDB 1,000 keys a statement was fastest (BENCHMARKS.md, key usage).
const KEYS_PER_STATEMENT = { mysql: 1000, sqlite: 400 } as const;

// A time only moves forward (GREATEST): instances write the same clients in any order.
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

  async recordLastUses(lastUses: Map<string, number>): Promise<void> {
    const entries = [...lastUses];
    for (let start = 0; start < entries.length; start += this.keysPerStatement) {
      const chunk = entries.slice(start, start + this.keysPerStatement);
      const values = chunk.flatMap(([digest, usedAt]) => [digest, sqlTimestamp(new Date(usedAt))]);
      for (const statement of this.statements) await this.transactions.manager.query(statement(chunk.length), values);
    }
  }
}
