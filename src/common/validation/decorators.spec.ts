import { validateSync } from 'class-validator';
import { IsDecimalAmount, isDecimalAmount } from './decorators';

describe('isDecimalAmount', () => {
  it.each([0, 12.5, 0.000001, 999999999999.5, 123.123456, 1, 999999999999.999, 0.5])('should accept %p', (value) => {
    expect(isDecimalAmount(value)).toBe(true);
  });

  it.each<[string, unknown]>([
    ['a negative number', -1],
    ['a tiny negative number', -0.000001],
    ['10^12', 1e12],
    ['more than 10^12', 1e15],
    ['1e-7', 1e-7],
    ['0.0000001', 0.0000001],
    ['7 decimal places', 1.1234567],
    ['7 decimal places below 1', 0.1234567],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['a numeric string', '12'],
    ['null', null],
    ['undefined', undefined],
    ['a boolean', true],
    ['an object', { value: 1 }],
  ])('should reject %s', (_label, value) => {
    expect(isDecimalAmount(value)).toBe(false);
  });
});

describe('IsDecimalAmount', () => {
  class AmountDto {
    @IsDecimalAmount()
    balance: unknown;
  }

  function errorsFor(balance: unknown): string[] {
    const dto = new AmountDto();
    dto.balance = balance;
    return validateSync(dto).flatMap((error) => Object.values(error.constraints ?? {}));
  }

  it('should pass validation for a valid amount', () => {
    expect(errorsFor(10.25)).toEqual([]);
  });

  it('should fail validation with a message naming the property and the limits', () => {
    expect(errorsFor(1.1234567)).toEqual(['balance must be a number >= 0 and < 1000000000000 with at most 6 decimal places']);
    expect(errorsFor('5')).toHaveLength(1);
  });
});
