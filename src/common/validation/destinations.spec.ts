import { ArgumentMetadata, BadRequestException } from '@nestjs/common';
import { IsOptionalDestination, IsOptionalDestinationPrices } from './destinations';
import { RequestValidationPipe } from './request-validation.pipe';

class PricedDto {
  @IsOptionalDestinationPrices()
  destinationPrices?: unknown;

  @IsOptionalDestination()
  destination?: string;
}

const metadata: ArgumentMetadata = { type: 'body', metatype: PricedDto, data: '' };
const pipe = new RequestValidationPipe();
const entries = (count: number) => Array.from({ length: count }, (_, index) => ({ prefix: String(1000 + index), perSmsCost: 0.01 }));

async function errorOf(body: Record<string, unknown>): Promise<string | undefined> {
  try {
    await pipe.transform(body, metadata);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return (error as BadRequestException).message;
  }
}

describe('destinationPrices and destination, through RequestValidationPipe', () => {
  it.each<[string, unknown]>([
    ['none', []],
    ['300 entries', entries(300)],
    [
      'prefixes of 1 and 7 digits, one the start of the other',
      [
        { prefix: '4', perSmsCost: 0 },
        { prefix: '4477009', perSmsCost: 999999999999.999 },
      ],
    ],
    ['a price of 0.000001', [{ prefix: '44', perSmsCost: 0.000001 }]],
  ])('should accept %s', async (_label, destinationPrices) => {
    expect(await errorOf({ destinationPrices })).toBeUndefined();
  });

  it.each<[string, unknown, string]>([
    ['an object', { prefix: '44', perSmsCost: 1 }, 'destinationPrices must be an array of {prefix, perSmsCost}, or null'],
    ['a string', '44:0.01', 'destinationPrices must be an array of {prefix, perSmsCost}, or null'],
    ['301 entries', entries(301), 'destinationPrices must have at most 300 entries'],
    ['an entry that is not an object', [{ prefix: '44', perSmsCost: 1 }, 7], 'destinationPrices[1] must be an object {prefix, perSmsCost}'],
    [
      'an entry of an unknown field',
      [{ prefix: '44', perSmsCost: 1, country: 'GB' }],
      'property destinationPrices[0].country should not exist',
    ],
    [
      'an entry of an unknown field 30,000 characters long, opening with an escape sequence',
      [{ prefix: '44', perSmsCost: 1, [`\u001b[31m${'x'.repeat(30_000)}`]: 1 }],
      `property destinationPrices[0].?[31m${'x'.repeat(37)}… should not exist`,
    ],
    [
      'a prefix with +',
      [{ prefix: '+44', perSmsCost: 1 }],
      'destinationPrices[0].prefix must be a string of 1 to 7 digits (an E.164 prefix without +)',
    ],
    [
      'a prefix of 8 digits',
      [{ prefix: '44770090', perSmsCost: 1 }],
      'destinationPrices[0].prefix must be a string of 1 to 7 digits (an E.164 prefix without +)',
    ],
    [
      'an empty prefix',
      [{ prefix: '', perSmsCost: 1 }],
      'destinationPrices[0].prefix must be a string of 1 to 7 digits (an E.164 prefix without +)',
    ],
    [
      'a prefix as a number',
      [{ prefix: 44, perSmsCost: 1 }],
      'destinationPrices[0].prefix must be a string of 1 to 7 digits (an E.164 prefix without +)',
    ],
    ['a missing prefix', [{ perSmsCost: 1 }], 'destinationPrices[0].prefix must be a string of 1 to 7 digits (an E.164 prefix without +)'],
    [
      'a price of 7 decimal places',
      [{ prefix: '44', perSmsCost: 0.0000001 }],
      'destinationPrices[0].perSmsCost must be a number >= 0 and < 1000000000000 with at most 6 decimal places',
    ],
    [
      'a negative price',
      [{ prefix: '44', perSmsCost: -1 }],
      'destinationPrices[0].perSmsCost must be a number >= 0 and < 1000000000000 with at most 6 decimal places',
    ],
    [
      'a price as text',
      [{ prefix: '44', perSmsCost: '0.01' }],
      'destinationPrices[0].perSmsCost must be a number >= 0 and < 1000000000000 with at most 6 decimal places',
    ],
    [
      'a missing price',
      [{ prefix: '44' }],
      'destinationPrices[0].perSmsCost must be a number >= 0 and < 1000000000000 with at most 6 decimal places',
    ],
    [
      'a prefix twice',
      [
        { prefix: '44', perSmsCost: 1 },
        { prefix: '447', perSmsCost: 2 },
        { prefix: '44', perSmsCost: 3 },
      ],
      'destinationPrices has prefix 44 more than once',
    ],
  ])('should refuse %s, naming the problem', async (_label, destinationPrices, error) => {
    expect(await errorOf({ destinationPrices })).toBe(error);
  });

  it.each(['+1234567', '+447700900123', '+123456789012345'])('should accept the destination %s', async (destination) => {
    expect(await errorOf({ destination })).toBeUndefined();
  });

  it.each<[string, unknown]>([
    ['without +', '447700900123'],
    ['of 6 digits', '+123456'],
    ['of 16 digits', '+1234567890123456'],
    ['with a space', '+44 7700 900123'],
    ['as a number', 447700900123],
  ])('should refuse a destination %s', async (_label, destination) => {
    expect(await errorOf({ destination })).toBe('destination must be + and then 7 to 15 digits (E.164)');
  });
});
