import { Amount } from '../common/exact-amount';
import { storedAmount } from '../database/exact-decimal';
import { SmsConfig } from './sms-config.entity';

/** Each amount's exact twin (sms-config.entity.ts): written with it, read with it (storedMicros). */
export const AMOUNT_TWINS = {
  balance: 'balanceMicros',
  perSmsCost: 'perSmsCostMicros',
  lowBalanceThreshold: 'lowBalanceThresholdMicros',
} as const satisfies Partial<Record<keyof SmsConfig, keyof SmsConfig>>;

export type AmountTwin = (typeof AMOUNT_TWINS)[keyof typeof AMOUNT_TWINS];

/**
 * The fields an answer may show from a configuration's columns, as it shows them. Which answer shows which is the
 * answer's own list, beside its DTO (get-client, the list, the v1 reads, resolve, route's candidate).
 */
export interface StoredSmsConfigFields {
  smsConfigId: number;
  clientId: number;
  providerName: string;
  providerUrl: string | null;
  username: string | null;
  senderId: string | null;
  smsType: string | null;
  smsApi: string;
  balanceUrl: string | null;
  balance: Amount;
  perSmsCost: Amount;
  lowBalanceThreshold: Amount | null;
  isActive: boolean;
}

export type StoredSmsConfigField = keyof StoredSmsConfigFields;

/**
 * A configuration as read: an entity, or a raw row with each column under its property's name. Both drivers return
 * booleans as 0/1, mysql2 DECIMAL as text; an amount's twin is read as text (SqlNames.integerTextList).
 */
export type SmsConfigRow = { [P in keyof SmsConfig]?: unknown };

type Read = (row: SmsConfigRow) => unknown;

const text =
  (column: keyof SmsConfig): Read =>
  (row) =>
    row[column];
const integer =
  (column: keyof SmsConfig): Read =>
  (row) =>
    row[column] === null ? null : Number(row[column]);
const flag =
  (column: keyof SmsConfig): Read =>
  (row) =>
    Boolean(row[column]);
// The API promises amounts as their stored digits: the twin where it holds the DECIMAL's value.
const amount =
  (column: keyof typeof AMOUNT_TWINS): Read =>
  (row) =>
    storedAmount((row[AMOUNT_TWINS[column]] ?? null) as string | null, (row[column] ?? null) as string | number | null);

/** Each field's column, and how its value is read. */
const STORED_FIELDS: { [F in StoredSmsConfigField]: { column: keyof SmsConfig; read: Read } } = {
  smsConfigId: { column: 'id', read: integer('id') },
  clientId: { column: 'clientId', read: integer('clientId') },
  providerName: { column: 'providerName', read: text('providerName') },
  providerUrl: { column: 'providerUrl', read: text('providerUrl') },
  username: { column: 'username', read: text('username') },
  senderId: { column: 'senderId', read: text('senderId') },
  smsType: { column: 'smsType', read: text('smsType') },
  smsApi: { column: 'smsApi', read: text('smsApi') },
  balanceUrl: { column: 'balanceUrl', read: text('balanceUrl') },
  balance: { column: 'balance', read: amount('balance') },
  perSmsCost: { column: 'perSmsCost', read: amount('perSmsCost') },
  lowBalanceThreshold: { column: 'lowBalanceThreshold', read: amount('lowBalanceThreshold') },
  isActive: { column: 'isActive', read: flag('isActive') },
};

/** The fields of an answer's list read from the configuration's columns (the others the answer gets elsewhere). */
export function storedFieldsOf<F extends string>(fields: readonly F[]): Array<F & StoredSmsConfigField> {
  return fields.filter((field): field is F & StoredSmsConfigField => Object.hasOwn(STORED_FIELDS, field));
}

/** The columns to read for the fields, once each: plain columns, and the amounts' twins apart (read as text). */
export function columnsOf(fields: readonly StoredSmsConfigField[]): { columns: Array<keyof SmsConfig>; twins: AmountTwin[] } {
  const columns = [...new Set(fields.map((field) => STORED_FIELDS[field].column))];
  const twins = columns.flatMap((column) => (column in AMOUNT_TWINS ? [AMOUNT_TWINS[column as keyof typeof AMOUNT_TWINS]] : []));
  return { columns, twins };
}

/** Reads the fields from a row into an object holding them in the fields' order: the order its answer's JSON shows. */
export function fieldReader<F extends StoredSmsConfigField>(fields: readonly F[]): (row: SmsConfigRow) => Pick<StoredSmsConfigFields, F> {
  const reads = fields.map((field) => [field, STORED_FIELDS[field].read] as const);
  return (row) => {
    const shown = {} as Record<F, unknown>;
    for (const [field, read] of reads) shown[field] = read(row);
    return shown as Pick<StoredSmsConfigFields, F>;
  };
}
