import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

// The last digits a range hides: numbers of one range are one operator's block, priced and pumped together.
const RANGE_HIDDEN_DIGITS = 4;

export type RefusedNumberType = 'premium-rate' | 'shared-cost';

export interface DestinationNumber {
  // The E.164 calling code without +, or null when no country has it.
  callingCode: string | null;
  range: string;
  refusedType: RefusedNumberType | null;
}

/** What the delivery signals read of a destination (`+` then 7–15 digits), by libphonenumber-js's `max` metadata. */
export function destinationNumber(destination: string): DestinationNumber {
  const parsed = parsePhoneNumberFromString(destination);
  const type = parsed?.getType();
  return {
    callingCode: parsed?.countryCallingCode ?? null,
    range: `${destination.slice(0, -RANGE_HIDDEN_DIGITS)}${'x'.repeat(RANGE_HIDDEN_DIGITS)}`,
    refusedType: type === 'PREMIUM_RATE' ? 'premium-rate' : type === 'SHARED_COST' ? 'shared-cost' : null,
  };
}
