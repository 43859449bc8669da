import { amountOf, decimalTextOf, microsOf } from './exact-decimal';

describe('exact decimal amounts', () => {
  it.each([
    ['12.500000', 12_500_000n],
    ['-0.500000', -500_000n],
    ['0.000001', 1n],
    ['999999999999.999999', 999_999_999_999_999_999n],
    [0.1, 100_000n],
    [0.000001, 1n],
    [-3.25, -3_250_000n],
    [123456789.123456, 123_456_789_123_456n],
    ['7', 7_000_000n],
  ])('should read %p as %p millionths', (value, micros) => {
    expect(microsOf(value)).toBe(micros);
  });

  it('should write millionths as DECIMAL text, and the API number', () => {
    expect(decimalTextOf(12_500_000n)).toBe('12.500000');
    expect(decimalTextOf(-1n)).toBe('-0.000001');
    expect(decimalTextOf(0n)).toBe('0.000000');
    expect(amountOf(-2_345_000n)).toBe(-2.345);
  });

  it('should debit a thousand times 0.1 from 100 to exactly 0, where doubles drift', () => {
    let micros = microsOf(100);
    let double = 100;
    for (let index = 0; index < 1000; index++) {
      micros -= microsOf(0.1);
      double -= 0.1;
    }
    expect(amountOf(micros)).toBe(0);
    expect(double).not.toBe(0);
  });
});
