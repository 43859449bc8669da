import { longestPrefixPrices, prefixesOf, pricedAt } from './destination-pricing';

const price = (smsConfigId: number, prefix: string, perSmsCostMicros: bigint) => ({ smsConfigId, prefix, perSmsCostMicros });

describe('Pricing by destination', () => {
  it('should look up a destination by its seven shortest prefixes, whatever its length', () => {
    expect(prefixesOf('+447700900123')).toEqual(['4', '44', '447', '4477', '44770', '447700', '4477009']);
    expect(prefixesOf('+1234567')).toEqual(['1', '12', '123', '1234', '12345', '123456', '1234567']);
  });

  it('should keep, per configuration, the entry of the longest prefix found, in whatever order the rows come', () => {
    const found = [price(1, '4477', 30n), price(2, '44', 50n), price(1, '44', 10n), price(1, '447', 20n), price(3, '4', 70n)];
    expect(longestPrefixPrices(found)).toEqual(
      new Map([
        [1, price(1, '4477', 30n)],
        [2, price(2, '44', 50n)],
        [3, price(3, '4', 70n)],
      ]),
    );
    expect(longestPrefixPrices([])).toEqual(new Map());
  });

  it('should price a configuration at its entry, exactly, and leave one without an entry at its perSmsCost', () => {
    const flat = { smsConfigId: 1, perSmsCostMicros: 12_500n, pricePrefix: null, shown: { perSmsCost: 0.0125 } };
    const other = { ...flat, smsConfigId: 2 };
    const [priced, unpriced] = pricedAt([flat, other], new Map([[1, price(1, '447', 1n)]]));
    expect(priced).toEqual({ smsConfigId: 1, perSmsCostMicros: 1n, pricePrefix: '447', shown: { perSmsCost: 0.000001 } });
    expect(unpriced).toBe(other);
  });
});
