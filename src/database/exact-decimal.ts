import { ValueTransformer } from 'typeorm';
import { Amount, amountOfText } from '../common/exact-amount';

/**
 * The DECIMAL(18,6) columns as the entity reads them: numbers (mysql2 reads DECIMAL as text). Amounts are not read
 * through it: a double cannot hold every DECIMAL(18,6), and SQLite stores DECIMAL as a double. They are read from their
 * exact twins (storedMicros) and shown through amountOf.
 */
export const exactDecimal: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

const MICROS_PER_UNIT = 1_000_000n;

/**
 * A DECIMAL(18,6) as read (mysql2: text; SQLite: a number) or an amount the API took, in millionths: arithmetic on
 * amounts is done on these, exactly, never on doubles. A number is read as the decimal it prints as, which for an
 * amount the API took (at most 15 significant digits) is what the caller wrote.
 */
export function microsOf(value: string | number): bigint {
  const text = typeof value === 'number' ? decimalOfNumber(value) : value.trim();
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const micros = BigInt(whole || '0') * MICROS_PER_UNIT + BigInt(fraction.padEnd(6, '0').slice(0, 6));
  return negative ? -micros : micros;
}

/** toFixed(6) prints a double's binary expansion (99999999999.9999 as 99999999999.999893): only when it is short does it not. */
function decimalOfNumber(value: number): string {
  const shortest = String(value);
  return /e/i.test(shortest) || (shortest.split('.')[1]?.length ?? 0) > 6 ? value.toFixed(6) : shortest;
}

/** Millionths as DECIMAL text (`-12.500000`), for the DECIMAL columns. */
export function decimalTextOf(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const magnitude = micros < 0n ? -micros : micros;
  return `${sign}${magnitude / MICROS_PER_UNIT}.${(magnitude % MICROS_PER_UNIT).toString().padStart(6, '0')}`;
}

/** Millionths as their shortest exact decimal: no trailing zero, no exponent (`12.5`, `0.000001`, `99999999999.99999`). */
export function exactTextOf(micros: bigint): string {
  return decimalTextOf(micros).replace(/\.?0+$/, '');
}

/** Millionths as an answer shows an amount: a JSON number with the stored digits, exactly. */
export function amountOf(micros: bigint): Amount {
  return amountOfText(exactTextOf(micros));
}

/**
 * An amount as stored: its exact twin (a BIGINT of millionths, read as text) and its DECIMAL column, which the previous
 * release reads and writes alone. The twin counts while the DECIMAL still holds its value; a row that release wrote
 * (twin null) or changed since (the DECIMAL differs) is read from the DECIMAL. Null: no amount (a threshold not set).
 */
export function storedMicros(exact: string | null, decimal: string | number | null): bigint | null {
  if (decimal === null) return null;
  if (exact === null) return microsOf(decimal);
  const micros = BigInt(exact);
  // mysql2 reads DECIMAL as its exact text; SQLite keeps a double, which the twin must round to.
  const agrees = typeof decimal === 'string' ? microsOf(decimal) === micros : Number(decimalTextOf(micros)) === decimal;
  return agrees ? micros : microsOf(decimal);
}

/**
 * storedMicros() as an answer shows it (amountOf): get-client's read on a cache miss shows every amount of every
 * configuration, where the bigint way cost ten times Number(). Below 10^15 millionths (15 digits, which a double
 * always prints back as written) the arithmetic is a double's.
 */
export function storedAmount(exact: string | null, decimal: string | number | null): Amount | null {
  if (decimal === null) return null;
  if (exact !== null) {
    const micros = Number(exact);
    if (Math.abs(micros) < 1e15) {
      const agrees = typeof decimal === 'string' ? Number(decimal.replace('.', '')) === micros : micros / 1e6 === decimal;
      if (agrees) return micros / 1e6;
    }
  }
  const micros = storedMicros(exact, decimal);
  return micros === null ? null : amountOf(micros);
}
