import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sourceAddressOf } from '../common/caller-trace';
import { SqlNames } from '../database/sql-names';
import { sqlTimestamp } from '../database/timestamps';
import { Transactions } from '../database/transactions';
import { KeyUse } from './key-usage-notes';

// Named, not imported: client/ authenticates through auth/, which notes here.
interface ClientKeyUsage {
  secretKeyDigest: string;
  previousSecretKeyDigest: string | null;
  secretKeyLastUsedAt: Date | null;
  previousSecretKeyLastUsedAt: Date | null;
  secretKeyLastUsedFrom: string | null;
  previousSecretKeyLastUsedFrom: string | null;
}

interface ScopedKeyUsage {
  keyDigest: string;
  lastUsedAt: Date | null;
  lastUsedFrom: string | null;
}

// SQLite allows 500 SELECTs in one UNION ALL; on MariaDB 1,000 keys a statement was fastest (BENCHMARKS.md, key usage).
const KEYS_PER_STATEMENT = { mysql: 1000, sqlite: 400 } as const;

// A key's digest, its last use and the address of that use, as columns of its table.
type KeyColumns<T> = [digest: keyof T & string, lastUsedAt: keyof T & string, lastUsedFrom: keyof T & string];

// A time only moves forward: instances write the same clients in any order, so a row is written only by a use not older
// than the one it holds, the use's address with it (one condition for both: nothing to keep in step).
@Injectable()
export class KeyUsageRepository {
  private readonly statements: Record<KeyUse['shape'], Array<(count: number) => string>>;
  private readonly keysPerStatement: number;

  constructor(
    private readonly transactions: Transactions,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const client = new SqlNames<ClientKeyUsage>(dataSource, 'Client');
    const scopedKey = new SqlNames<ScopedKeyUsage>(dataSource, 'ClientKey');
    const mysql = transactions.dialect === 'mysql';
    this.keysPerStatement = KEYS_PER_STATEMENT[transactions.dialect];
    const uses = (count: number) =>
      Array.from({ length: count }, (_, index) => {
        const [digest, usedAt, usedFrom, relayed] =
          index === 0 ? [' AS digest', ' AS used_at', ' AS used_from', ' AS relayed'] : ['', '', '', ''];
        return mysql
          ? `SELECT CONVERT(? USING ascii)${digest}, CAST(? AS DATETIME(3))${usedAt}, ?${usedFrom}, ?${relayed}`
          : `SELECT ?${digest}, ?${usedAt}, ?${usedFrom}, ?${relayed}`;
      }).join(' UNION ALL ');
    // A relayed use (route) moves the time only: the address stays the last direct use's.
    const forKey = <T extends object>(keys: SqlNames<T>, [digest, lastUsedAt, lastUsedFrom]: KeyColumns<T>) => {
      const [table, at, from] = [keys.table, keys.column(lastUsedAt), keys.column(lastUsedFrom)];
      return mysql
        ? (count: number) =>
            `UPDATE ${table} c JOIN (${uses(count)}) u ON ${keys.column(digest, 'c')} = u.digest
             SET c.${from} = CASE WHEN u.relayed = 1 THEN c.${from} ELSE u.used_from END, c.${at} = u.used_at
             WHERE c.${at} IS NULL OR c.${at} <= u.used_at`
        : (count: number) =>
            `UPDATE ${table} SET ${at} = u.used_at,
             ${from} = CASE WHEN u.relayed = 1 THEN ${table}.${from} ELSE u.used_from END
             FROM (${uses(count)}) AS u WHERE ${table}.${keys.column(digest)} = u.digest
             AND (${table}.${at} IS NULL OR ${table}.${at} <= u.used_at)`;
    };
    this.statements = {
      root: [
        forKey(client, ['secretKeyDigest', 'secretKeyLastUsedAt', 'secretKeyLastUsedFrom']),
        forKey(client, ['previousSecretKeyDigest', 'previousSecretKeyLastUsedAt', 'previousSecretKeyLastUsedFrom']),
      ],
      scoped: [forKey(scopedKey, ['keyDigest', 'lastUsedAt', 'lastUsedFrom'])],
    };
  }

  async recordLastUses(lastUses: Map<string, KeyUse>): Promise<void> {
    const entries = [...lastUses];
    for (const shape of ['root', 'scoped'] as const) {
      const ofShape = entries.filter(([, use]) => use.shape === shape);
      for (let start = 0; start < ofShape.length; start += this.keysPerStatement) {
        const chunk = ofShape.slice(start, start + this.keysPerStatement);
        const values = chunk.flatMap(([digest, { usedAt, ip, relayed }]) => [
          digest,
          sqlTimestamp(new Date(usedAt)),
          sourceAddressOf(ip),
          relayed ? 1 : 0,
        ]);
        for (const statement of this.statements[shape]) await this.transactions.manager.query(statement(chunk.length), values);
      }
    }
  }
}
