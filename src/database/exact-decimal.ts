import { ValueTransformer } from 'typeorm';

/**
 * DECIMAL(18,6) as the API shows it: a JSON number. mysql2 reads DECIMAL as text ('12.500000'), which Number() turns
 * into the closest double; with at most 12 integer and 6 decimal digits (docs/interface.md) that double prints back as
 * exactly what was written. Written as given: the validation pipe has already refused what a double cannot hold.
 */
export const exactDecimal: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

const MICROS_PER_UNIT = 1_000_000n;

/**
 * A DECIMAL(18,6) as read (mysql2: text; SQLite: a number) or an amount the API took, in millionths: arithmetic on
 * amounts is done on these, exactly, never on doubles.
 */
export function microsOf(value: string | number): bigint {
  const text = typeof value === 'number' ? value.toFixed(6) : value.trim();
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const micros = BigInt(whole || '0') * MICROS_PER_UNIT + BigInt(fraction.padEnd(6, '0').slice(0, 6));
  return negative ? -micros : micros;
}

/** Millionths as DECIMAL text (`-12.500000`): what both databases store exactly (SQLite as the nearest double). */
export function decimalTextOf(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const magnitude = micros < 0n ? -micros : micros;
  return `${sign}${magnitude / MICROS_PER_UNIT}.${(magnitude % MICROS_PER_UNIT).toString().padStart(6, '0')}`;
}

/** Millionths as the API shows an amount: a JSON number. */
export function amountOf(micros: bigint): number {
  return Number(decimalTextOf(micros));
}
