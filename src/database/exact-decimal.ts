import { ValueTransformer } from 'typeorm';
import { Amount, amountOfText } from '../common/exact-amount';

// Amounts are not read through it: a double cannot hold every DECIMAL(18,6); they come from their exact twins.
export const exactDecimal: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

const MICROS_PER_UNIT = 1_000_000n;

// A number is read as the decimal it prints as: for an amount the API took (at most 15 digits), what the caller wrote.
export function microsOf(value: string | number): bigint {
  const text = typeof value === 'number' ? decimalOfNumber(value) : value.trim();
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const micros = BigInt(whole || '0') * MICROS_PER_UNIT + BigInt(fraction.padEnd(6, '0').slice(0, 6));
  return negative ? -micros : micros;
}

// toFixed(6) prints a double's binary expansion (99999999999.9999 as 99999999999.999893) unless it is short.
function decimalOfNumber(value: number): string {
  const shortest = String(value);
  return /e/i.test(shortest) || (shortest.split('.')[1]?.length ?? 0) > 6 ? value.toFixed(6) : shortest;
}

export function decimalTextOf(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const magnitude = micros < 0n ? -micros : micros;
  return `${sign}${magnitude / MICROS_PER_UNIT}.${(magnitude % MICROS_PER_UNIT).toString().padStart(6, '0')}`;
}

export function exactTextOf(micros: bigint): string {
  return decimalTextOf(micros).replace(/\.?0+$/, '');
}

export function amountOf(micros: bigint): Amount {
  return amountOfText(exactTextOf(micros));
}

// The previous release writes the DECIMAL alone, so the twin counts only while they agree (docs/architecture.md, Money).
export function storedMicros(exact: string | null, decimal: string | number | null): bigint | null {
  if (decimal === null) return null;
  if (exact === null) return microsOf(decimal);
  const micros = BigInt(exact);
  // mysql2 reads DECIMAL as its exact text; SQLite keeps a double, which the twin must round to.
  const agrees = typeof decimal === 'string' ? microsOf(decimal) === micros : Number(decimalTextOf(micros)) === decimal;
  return agrees ? micros : microsOf(decimal);
}

// On get-client's miss every amount goes through here, where the bigint way cost ten times Number().
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
