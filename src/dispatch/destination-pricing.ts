import { Amount } from '../common/exact-amount';
import { MAX_PREFIX_DIGITS } from '../common/validation/destination-limits';
import { amountOf } from '../database/exact-decimal';
import { PrefixPrice } from '../sms-config/destination-price.repository';

// '+447700900123' → '4', '44', … '4477009': the only prefixes that can price it.
export function prefixesOf(destination: string): string[] {
  const digits = destination.slice(1);
  return Array.from({ length: MAX_PREFIX_DIGITS }, (_, index) => digits.slice(0, index + 1));
}

export function isAllowedDestination(destination: string, allowedPrefixes: readonly string[]): boolean {
  const digits = destination.slice(1);
  return allowedPrefixes.some((prefix) => digits.startsWith(prefix));
}

// Per configuration, the entry of the longest prefix among those found.
export function longestPrefixPrices(found: readonly PrefixPrice[]): Map<number, PrefixPrice> {
  const longest = new Map<number, PrefixPrice>();
  for (const price of found) {
    const held = longest.get(price.smsConfigId);
    if (held === undefined || price.prefix.length > held.prefix.length) longest.set(price.smsConfigId, price);
  }
  return longest;
}

interface Priceable {
  smsConfigId: number;
  perSmsCostMicros: bigint;
  pricePrefix: string | null;
  shown: { perSmsCost: Amount };
}

// Each configuration at its price for the destination: the entry found for it, else its perSmsCost as it is.
export function pricedAt<T extends Priceable>(smsConfigs: readonly T[], prices: Map<number, PrefixPrice>): T[] {
  return smsConfigs.map((smsConfig) => {
    const price = prices.get(smsConfig.smsConfigId);
    if (price === undefined) return smsConfig;
    const { perSmsCostMicros, prefix } = price;
    return { ...smsConfig, perSmsCostMicros, pricePrefix: prefix, shown: { ...smsConfig.shown, perSmsCost: amountOf(perSmsCostMicros) } };
  });
}
