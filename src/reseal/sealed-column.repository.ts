import { DataSource } from 'typeorm';
import { retryDeadlockVictims } from '../database/deadlock-retry';
import { writeResultOf } from '../database/write-scripts';
import { SqlValue, WriteResult } from '../database/transactions';
import { RowColumns, SealedColumn } from './sealed-columns';

type SqlDialect = 'mysql' | 'sqlite';

export interface ResealStatements {
  readonly dialect: SqlDialect;
  query<T>(sql: string, values?: SqlValue[]): Promise<T[]>;
  execute(sql: string, values: SqlValue[]): Promise<WriteResult>;
}

export function resealStatements(dataSource: DataSource): ResealStatements {
  return {
    dialect: dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    query: (sql, values = []) => dataSource.query(sql, values),
    async execute(sql, values) {
      const runner = dataSource.createQueryRunner();
      try {
        return writeResultOf(await runner.query(sql, values, true));
      } finally {
        await runner.release();
      }
    },
  };
}

export interface SealedRow {
  row: RowColumns;
  sealed: string;
}

export interface KeyIdCount {
  keyId: string;
  count: number;
}

// MySQL compares these columns case-insensitively: byte for byte, a value just replaced is never taken for the one read.
const BYTEWISE: Record<SqlDialect, string> = { mysql: ' COLLATE utf8mb4_bin', sqlite: '' };

export class SealedColumnRepository {
  private readonly keyList: string;
  private readonly selectList: string;

  constructor(
    private readonly sql: ResealStatements,
    readonly sealedColumn: SealedColumn,
  ) {
    this.keyList = sealedColumn.key.join(', ');
    this.selectList = [...sealedColumn.key, ...sealedColumn.contextColumns, `${sealedColumn.column} AS sealed`].join(', ');
  }

  async readAfter(after: RowColumns | undefined, limit: number): Promise<SealedRow[]> {
    const { table, column } = this.sealedColumn;
    const [keyset, values] = after ? this.keysetAfter(after) : ['', []];
    const rows = await this.sql.query<RowColumns & { sealed: string }>(
      `SELECT ${this.selectList} FROM ${table} WHERE ${column} IS NOT NULL${keyset} ORDER BY ${this.keyList} LIMIT ${positiveInteger(limit)}`,
      values,
    );
    return rows.map(({ sealed, ...row }) => ({ row, sealed }));
  }

  async replace(read: SealedRow, resealed: string): Promise<boolean> {
    const { table, column, key } = this.sealedColumn;
    const sameRow = key.map((name) => `${name} = ?`).join(' AND ');
    const result = await retryDeadlockVictims(() =>
      this.sql.execute(`UPDATE ${table} SET ${column} = ? WHERE ${sameRow} AND ${column}${BYTEWISE[this.sql.dialect]} = ?`, [
        resealed,
        ...key.map((name) => read.row[name]),
        read.sealed,
      ]),
    );
    return result.affectedRows === 1;
  }

  async countByKeyId(): Promise<KeyIdCount[]> {
    const { table, column } = this.sealedColumn;
    const keyId = `SUBSTR(${column}, 1, INSTR(${column}, ':') - 1)${BYTEWISE[this.sql.dialect]}`;
    const rows = await this.sql.query<{ keyId: string; count: number | string }>(
      `SELECT ${keyId} AS keyId, COUNT(*) AS count FROM ${table} WHERE ${column} IS NOT NULL GROUP BY keyId`,
    );
    return rows.map((row) => ({ keyId: String(row.keyId), count: Number(row.count) }));
  }

  private keysetAfter(after: RowColumns): [string, SqlValue[]] {
    const { key } = this.sealedColumn;
    const alternatives = key.map((name, index) => [...key.slice(0, index).map((equal) => `${equal} = ?`), `${name} > ?`].join(' AND '));
    const values = key.flatMap((_, index) => key.slice(0, index + 1).map((name) => after[name]));
    return [` AND (${alternatives.map((alternative) => `(${alternative})`).join(' OR ')})`, values];
  }
}

// In the text: some servers' prepared statements refuse a LIMIT placeholder.
function positiveInteger(value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`batch size must be a positive integer, not ${value}`);
  return value;
}
