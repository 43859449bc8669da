import { ExactAmount } from '../common/exact-amount';
import { amountOf, decimalTextOf, exactTextOf, microsOf, storedAmount, storedMicros } from './exact-decimal';

describe('exact decimal amounts', () => {
  it.each([
    ['12.500000', 12_500_000n],
    ['-0.500000', -500_000n],
    ['0.000001', 1n],
    ['999999999999.999999', 999_999_999_999_999_999n],
    [0.1, 100_000n],
    // Its shortest decimal, not the binary expansion toFixed(6) prints (99999999999.999893).
    [99999999999.9999, 99_999_999_999_999_900n],
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

  it('should print millionths as their shortest exact decimal, an ExactAmount where a double would change it', () => {
    expect(exactTextOf(12_500_000n)).toBe('12.5');
    expect(exactTextOf(100_000_000_000_000_000n)).toBe('100000000000');
    expect(exactTextOf(0n)).toBe('0');
    expect(exactTextOf(-1n)).toBe('-0.000001');
    expect(amountOf(1_234_567_890_123_456n)).toBe(1234567890.123456);
    expect(amountOf(99_999_999_999_999_990n)).toEqual(new ExactAmount('99999999999.99999'));
  });

  it('should read an amount from its twin while its DECIMAL agrees, else from the DECIMAL the previous release wrote', () => {
    // MySQL: the DECIMAL's text, exact.
    expect(storedMicros('99999999999999990', '99999999999.999990')).toBe(99_999_999_999_999_990n);
    expect(storedMicros('99999999999999990', '99999999999.999980')).toBe(99_999_999_999_999_980n);
    // SQLite: the DECIMAL is the nearest double.
    expect(storedMicros('99999999999999990', Number('99999999999.99999'))).toBe(99_999_999_999_999_990n);
    expect(storedMicros('10000000', 9.5)).toBe(9_500_000n);
    // A row the previous release wrote, or a threshold it cleared.
    expect(storedMicros(null, '12.500000')).toBe(12_500_000n);
    expect(storedMicros(null, 12.5)).toBe(12_500_000n);
    expect(storedMicros('5000000', null)).toBeNull();
    expect(storedMicros(null, null)).toBeNull();
  });

  it('should show what storedMicros reads, on its quick way too, for amounts of every size as each database reads them', () => {
    const samples = [
      0n,
      1n,
      -1n,
      12_500_000n,
      999_999_999_999_999n,
      1_000_000_000_000_000n,
      99_999_999_999_999_990n,
      -999_999_999_999_999_999n,
    ];
    for (let index = 0; index < 2000; index++) {
      const digits = 1 + Math.floor(Math.random() * 18);
      const micros = BigInt(Math.floor(Math.random() * 10 ** Math.min(digits, 15))) * 10n ** BigInt(Math.max(0, digits - 15));
      samples.push(Math.random() < 0.5 ? micros : -micros);
    }
    for (const micros of samples) {
      const exact = micros.toString();
      const mysqlDecimal = decimalTextOf(micros);
      const sqliteDecimal = Number(mysqlDecimal);
      for (const decimal of [mysqlDecimal, sqliteDecimal]) {
        expect([exact, decimal, storedAmount(exact, decimal)]).toEqual([exact, decimal, amountOf(storedMicros(exact, decimal)!)]);
      }
      // Changed by the previous release: the DECIMAL is shown.
      expect(storedAmount(exact, decimalTextOf(micros + 1n))).toEqual(amountOf(micros + 1n));
      expect(storedAmount(null, mysqlDecimal)).toEqual(amountOf(micros));
    }
    expect(storedAmount('5000000', null)).toBeNull();
  });
});
