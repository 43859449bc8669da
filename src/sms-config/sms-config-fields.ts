import { Amount } from '../common/exact-amount';
import { storedAmount } from '../database/exact-decimal';
import { SmsConfig } from './sms-config.entity';

// Why each amount has a twin: docs/architecture.md, The data layer.
export const AMOUNT_TWINS = {
  balance: 'balanceMicros',
  perSmsCost: 'perSmsCostMicros',
  lowBalanceThreshold: 'lowBalanceThresholdMicros',
} as const satisfies Partial<Record<keyof SmsConfig, keyof SmsConfig>>;

export type AmountTwin = (typeof AMOUNT_TWINS)[keyof typeof AMOUNT_TWINS];

// Which answer shows which of these is the answer's own list, beside its DTO.
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

// An entity, or a raw row: both drivers return booleans as 0/1, and mysql2 a DECIMAL as text.
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
const amount =
  (column: keyof typeof AMOUNT_TWINS): Read =>
  (row) =>
    storedAmount((row[AMOUNT_TWINS[column]] ?? null) as string | null, (row[column] ?? null) as string | number | null);

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

export function storedFieldsOf<F extends string>(fields: readonly F[]): Array<F & StoredSmsConfigField> {
  return fields.filter((field): field is F & StoredSmsConfigField => Object.hasOwn(STORED_FIELDS, field));
}

export function columnsOf(fields: readonly StoredSmsConfigField[]): { columns: Array<keyof SmsConfig>; twins: AmountTwin[] } {
  const columns = [...new Set(fields.map((field) => STORED_FIELDS[field].column))];
  const twins = columns.flatMap((column) => (column in AMOUNT_TWINS ? [AMOUNT_TWINS[column as keyof typeof AMOUNT_TWINS]] : []));
  return { columns, twins };
}

export function fieldReader<F extends StoredSmsConfigField>(fields: readonly F[]): (row: SmsConfigRow) => Pick<StoredSmsConfigFields, F> {
  const reads = fields.map((field) => [field, STORED_FIELDS[field].read] as const);
  return (row) => {
    const shown = {} as Record<F, unknown>;
    for (const [field, read] of reads) shown[field] = read(row);
    return shown as Pick<StoredSmsConfigFields, F>;
  };
}
