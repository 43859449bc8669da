import { DataSource, EntityMetadata } from 'typeorm';
import { microsOf, storedAmount } from '../database/exact-decimal';
import { SqlValue } from '../database/transactions';
import { exactTwinsOf, requestColumnsOf } from './column-roles';
import { SmsConfig } from './sms-config.entity';

// An entity, or a raw row: both drivers return booleans as 0/1, and mysql2 a DECIMAL as text.
export type SmsConfigRow = { [P in keyof SmsConfig]?: unknown };

// Each amount's @ExactTwin is named so; why the twins: docs/architecture.md, The data layer.
export type AmountTwin = Extract<keyof SmsConfig, `${string}Micros`>;

// A configuration as add stores it, keyed by the entity's properties: a column left out stores its default.
export type NewSmsConfig = Pick<SmsConfig, 'clientId'> &
  Partial<
    Omit<
      SmsConfig,
      'id' | 'client' | 'createdAt' | 'updatedAt' | 'credentialVersion' | 'consecutiveFailures' | 'unhealthyUntil' | AmountTwin
    >
  >;

// A PATCH's changes, by the request's field names (password, not passwordSealed).
export type SmsConfigChanges = Partial<Record<string, SqlValue>>;

// The columns requests write, in the entity's order: the fields a PATCH may change, and add's.
export const SMS_CONFIG_REQUEST_COLUMNS = requestColumnsOf(SmsConfig);

type Read = (row: SmsConfigRow) => unknown;
type ColumnMetadata = EntityMetadata['columns'][number];

interface ShownColumn {
  column: keyof SmsConfig;
  twin?: AmountTwin;
  read: Read;
}

interface WrittenColumn {
  property: keyof SmsConfig;
  twin?: AmountTwin;
  // A field add leaves out, or a PATCH sends as null, stores its column's default.
  unset: SqlValue;
}

/**
 * A configuration's fields as the entity declares its columns (TypeORM's metadata, and the roles of column-roles.ts):
 * the column each answer field is read from and how, and the columns each request field is written to. An answer shows
 * a column by its property's name (the id as smsConfigId), never a sealed column or a twin.
 */
export class SmsConfigFields {
  /** The columns add writes from its request, the twins included, in the entity's order. */
  readonly written: Array<keyof SmsConfig>;
  private readonly shown = new Map<string, ShownColumn>();
  private readonly byField = new Map<string, WrittenColumn>();
  private readonly byProperty = new Map<keyof SmsConfig, WrittenColumn>();
  private readonly amountOfTwin = new Map<keyof SmsConfig, keyof SmsConfig>();
  private readonly addWrites: Array<(smsConfig: SmsConfigRow) => SqlValue>;

  constructor(dataSource: DataSource) {
    const twins = exactTwinsOf(SmsConfig) as Map<keyof SmsConfig, AmountTwin>;
    const sealed = SMS_CONFIG_REQUEST_COLUMNS.filter((column) => column.sealed).map(({ property }) => property);
    const hidden = new Set<string>([...twins.values(), ...sealed]);
    const columns = dataSource.getMetadata(SmsConfig).columns;
    for (const column of columns) {
      const property = column.propertyName as keyof SmsConfig;
      const twin = twins.get(property);
      if (!hidden.has(property))
        this.shown.set(property === 'id' ? 'smsConfigId' : property, { column: property, twin, read: readOf(column, twin) });
      const requested = SMS_CONFIG_REQUEST_COLUMNS.find((request) => request.property === property);
      if (requested === undefined) continue;
      const written = { property, twin, unset: defaultOf(column) };
      this.byField.set(requested.field, written);
      this.byProperty.set(property, written);
      if (twin !== undefined) this.amountOfTwin.set(twin, property);
    }
    this.written = columns
      .map((column) => column.propertyName as keyof SmsConfig)
      .filter((property) => this.byProperty.has(property) || this.amountOfTwin.has(property));
    this.addWrites = this.written.map((property) => {
      const amount = this.amountOfTwin.get(property);
      const { unset } = this.byProperty.get(amount ?? property)!;
      if (amount !== undefined) return (smsConfig) => twinOf((smsConfig[amount] ?? unset) as SqlValue);
      return (smsConfig) => {
        const value = (smsConfig[property] ?? unset) as SqlValue;
        return typeof value === 'boolean' ? Number(value) : value;
      };
    });
  }

  /** The fields of these an answer reads from the columns. */
  storedFieldsOf(fields: readonly string[]): string[] {
    return fields.filter((field) => this.shown.has(field));
  }

  /** The columns to select to read these fields, and the twins to select as text. */
  columnsOf(fields: readonly string[]): { columns: Array<keyof SmsConfig>; twins: AmountTwin[] } {
    const read = fields.map((field) => this.shownColumn(field));
    return { columns: [...new Set(read.map(({ column }) => column))], twins: [...new Set(read.flatMap(({ twin }) => twin ?? []))] };
  }

  /** Reads these fields from a row, in this order. */
  reader<T>(fields: readonly string[]): (row: SmsConfigRow) => T {
    const reads = fields.map((field) => [field, this.shownColumn(field).read] as const);
    return (row) => {
      const shown: Record<string, unknown> = {};
      for (const [field, read] of reads) shown[field] = read(row);
      return shown as T;
    };
  }

  /** The values of the columns add writes, in `written`'s order, as SQL takes them. */
  addValues(smsConfig: SmsConfigRow): SqlValue[] {
    return this.addWrites.map((write) => write(smsConfig));
  }

  /** A PATCH's changes as the columns they set, each amount's twin beside it. */
  changedColumns(changes: SmsConfigChanges): Partial<Record<keyof SmsConfig, SqlValue>> {
    const columns: Partial<Record<keyof SmsConfig, SqlValue>> = {};
    for (const [field, value] of Object.entries(changes)) {
      const { property, twin } = this.byField.get(field)!;
      columns[property] = this.stored(property, value);
      if (twin !== undefined) columns[twin] = twinOf(columns[property]);
    }
    return columns;
  }

  private stored(property: keyof SmsConfig, value: unknown): SqlValue {
    return (value ?? this.byProperty.get(property)!.unset) as SqlValue;
  }

  private shownColumn(field: string): ShownColumn {
    const shown = this.shown.get(field);
    if (shown === undefined) throw new Error(`no column of sms_config is shown as ${field}`);
    return shown;
  }
}

function readOf(column: ColumnMetadata, twin: AmountTwin | undefined): Read {
  const property = column.propertyName as keyof SmsConfig;
  if (twin !== undefined) {
    return (row) => storedAmount((row[twin] ?? null) as string | null, (row[property] ?? null) as string | number | null);
  }
  if (column.type === 'boolean') return (row) => Boolean(row[property]);
  if (column.type === 'int') return (row) => (row[property] === null ? null : Number(row[property]));
  return (row) => row[property];
}

function defaultOf(column: ColumnMetadata): SqlValue {
  return typeof column.default === 'function' || column.default === undefined ? null : (column.default as SqlValue);
}

function twinOf(amount: SqlValue): string | null {
  return amount === null ? null : microsOf(amount as number | string).toString();
}
