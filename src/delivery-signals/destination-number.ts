import { PhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';

// The last digits a range hides: numbers of one range are one operator's block, priced and pumped together.
const RANGE_HIDDEN_DIGITS = 4;

export const IMPOSSIBLE_DESTINATION = 'destination must be a possible E.164 number (+<calling code><number>)';

export type RefusedNumberType = 'premium-rate' | 'shared-cost';

/**
 * A destination as libphonenumber-js's `max` metadata reads it, once: its E.164 form is the only spelling that prices,
 * ranges, allowed destinations and rates see, so no other spelling of a number reaches another range.
 */
export class DestinationNumber {
  readonly e164: string;
  readonly callingCode: string;
  readonly range: string;

  constructor(private readonly parsed: PhoneNumber) {
    this.e164 = parsed.number;
    this.callingCode = parsed.countryCallingCode;
    this.range = `${this.e164.slice(0, -RANGE_HIDDEN_DIGITS)}${'x'.repeat(RANGE_HIDDEN_DIGITS)}`;
  }

  // Matching the number against its country's types costs more than reading it: asked only where the answer can refuse it.
  refusedType(): RefusedNumberType | null {
    const type = this.parsed.getType();
    return type === 'PREMIUM_RATE' ? 'premium-rate' : type === 'SHARED_COST' ? 'shared-cost' : null;
  }
}

/** The number a destination (`+` then 7–15 digits) is, or null when its calling code is unknown or it is impossible there. */
export function readDestination(destination: string): DestinationNumber | null {
  const parsed = parsePhoneNumberFromString(destination);
  return parsed !== undefined && parsed.isPossible() ? new DestinationNumber(parsed) : null;
}

/** Route's reading: a number given in any spelling but its E.164 form is no number route may send to. */
export function routedDestination(destination: string): DestinationNumber | null {
  const number = readDestination(destination);
  return number !== null && number.e164 === destination ? number : null;
}
