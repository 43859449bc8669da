import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/metadata.max.json';

// The last digits a range hides: numbers of one range are one operator's block, priced and pumped together.
const RANGE_HIDDEN_DIGITS = 4;

// Calling codes are prefix-free and at most 3 digits: a lookup, where parsing a number costs tens of microseconds.
const CALLING_CODES = new Set([...Object.keys(metadata.country_calling_codes), ...Object.keys(metadata.nonGeographic ?? {})]);

export type RefusedNumberType = 'premium-rate' | 'shared-cost';

export interface DestinationNumber {
  // The E.164 calling code without +, or null when no country has it.
  callingCode: string | null;
  range: string;
  refusedType: RefusedNumberType | null;
}

/** What route reads of a destination (`+` then 7–15 digits), by libphonenumber-js's `max` metadata. */
export function destinationNumber(destination: string): DestinationNumber {
  return { callingCode: callingCodeOf(destination), range: rangeOf(destination), refusedType: refusedTypeOf(destination) };
}

// Parses the number: asked only where the answer can refuse it.
export function refusedTypeOf(destination: string): RefusedNumberType | null {
  const type = parsePhoneNumberFromString(destination)?.getType();
  return type === 'PREMIUM_RATE' ? 'premium-rate' : type === 'SHARED_COST' ? 'shared-cost' : null;
}

export function callingCodeOf(destination: string): string | null {
  for (let length = 1; length <= 3; length++) {
    const code = destination.slice(1, 1 + length);
    if (CALLING_CODES.has(code)) return code;
  }
  return null;
}

export function rangeOf(destination: string): string {
  return `${destination.slice(0, -RANGE_HIDDEN_DIGITS)}${'x'.repeat(RANGE_HIDDEN_DIGITS)}`;
}
