import { DataSource, EntityMetadata } from 'typeorm';
import { answerFieldsOf } from '../common/answer-fields';
import { sqlTimestamp } from '../database/timestamps';
import { SqlValue } from '../database/transactions';
import { Client } from './client.entity';
import { AddClientDto } from './dto/add-client.dto';
import { AdminClientDto, UpdateClientDto } from './dto/admin-client.dto';

// The fields each DTO documents, in its order: those add stores, those PATCH changes (its 400 names them), the admin view's.
export const ADD_CLIENT_FIELDS = answerFieldsOf(AddClientDto);
export const CHANGEABLE_CLIENT_FIELDS = answerFieldsOf(UpdateClientDto);
export const ADMIN_CLIENT_FIELDS = answerFieldsOf(AdminClientDto);

// A client as add stores it, by the entity's properties: what the request sent, each other column's default.
export type NewClient = Omit<Client, 'id' | 'smsConfigs'>;

// A row read for an answer, and the UTC day the daily sums count.
export type FieldRead<Row> = (row: Row, today: string) => unknown;

type ColumnMetadata = EntityMetadata['columns'][number];

/**
 * A client's columns as the entity declares them (TypeORM's metadata, read, never changed): add's INSERT of its DTO's
 * fields, and an answer's fields read from the columns of their names. A field that is no column of its name, or that
 * reads otherwise (a key usage, a limit, a daily sum), is computed by hand where the query is (client.repository.ts).
 */
export class ClientFields {
  /** The columns add's INSERT writes, in the entity's order: its request's fields, the key's digest and the time. */
  readonly inserted: Array<keyof NewClient>;
  private readonly columns = new Map<string, ColumnMetadata>();

  constructor(dataSource: DataSource) {
    for (const column of dataSource.getMetadata(Client).columns) this.columns.set(column.propertyName, column);
    for (const field of [...ADD_CLIENT_FIELDS, ...CHANGEABLE_CLIENT_FIELDS]) this.column(field);
    const written = new Set<string>([...ADD_CLIENT_FIELDS, 'secretKeyDigest', 'createdAt']);
    this.inserted = [...this.columns.keys()].filter((property) => written.has(property)) as Array<keyof NewClient>;
  }

  /** The new client: the request's fields, each column's default for the others. */
  added(request: AddClientDto, set: Pick<NewClient, 'secretKeyDigest' | 'createdAt'>): NewClient {
    const client: Record<string, unknown> = {};
    for (const [property, column] of this.columns) if (!column.isGenerated) client[property] = defaultOf(column);
    for (const field of ADD_CLIENT_FIELDS) if (request[field] !== undefined) client[field] = request[field];
    return { ...client, ...set } as NewClient;
  }

  /** add's values, in `inserted`'s order, as SQL takes them. */
  insertValues(client: NewClient): SqlValue[] {
    return this.inserted.map((property) => sqlValueOf(this.columns.get(property)!, client[property]));
  }

  /** Reads these fields of a row, in this order: each by `computed` where it has a read, else from its column. */
  reader<Row extends object, T>(
    fields: readonly string[],
    computed: Partial<Record<string, FieldRead<Row>>>,
  ): (row: Row, today: string) => T {
    const reads = fields.map((field) => [field, computed[field] ?? this.columnRead<Row>(field)] as const);
    return (row, today) => {
      const shown: Record<string, unknown> = {};
      for (const [field, read] of reads) shown[field] = read(row, today);
      return shown as T;
    };
  }

  private columnRead<Row extends object>(field: string): FieldRead<Row> {
    const read = (row: Row) => (row as Record<string, unknown>)[field];
    if (this.column(field).type !== 'datetime') return read;
    return (row) => (read(row) as Date | null)?.toISOString() ?? null;
  }

  private column(property: string): ColumnMetadata {
    const column = this.columns.get(property);
    if (column === undefined) throw new Error(`client has no column for ${property}`);
    return column;
  }
}

function defaultOf(column: ColumnMetadata): unknown {
  return typeof column.default === 'function' || column.default === undefined ? null : column.default;
}

function sqlValueOf(column: ColumnMetadata, value: unknown): SqlValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return Number(value);
  if (value instanceof Date) return sqlTimestamp(value);
  return column.type === 'simple-json' ? JSON.stringify(value) : (value as SqlValue);
}
