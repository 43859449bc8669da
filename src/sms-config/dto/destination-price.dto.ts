import { ApiProperty } from '@nestjs/swagger';
import { Amount } from '../../common/exact-amount';
import { E164_PREFIX, MAX_DESTINATION_PRICES } from '../../common/validation/destination-limits';
import { MAX_DESTINATION_PRICES_PER_CLIENT } from '../sms-config-limit';

export class DestinationPriceDto {
  @ApiProperty({
    pattern: E164_PREFIX.source,
    example: '447',
    description: 'An E.164 prefix without +: the destinations whose digits start with it',
  })
  prefix: string;

  @ApiProperty({
    type: Number,
    minimum: 0,
    maximum: 1e12,
    exclusiveMaximum: true,
    example: 0.0425,
    description: 'The price of one SMS to those destinations, at most 6 decimal places, kept exactly',
  })
  perSmsCost: Amount;
}

export type RequestedDestinationPrice = { prefix: string; perSmsCost: number };

export const DESTINATION_PRICES_RULE =
  `Prices per destination: at most ${MAX_DESTINATION_PRICES} entries, each prefix once, and at most ` +
  `${MAX_DESTINATION_PRICES_PER_CLIENT} over all of the client's configurations (409 past it). Dispatch prices a destination ` +
  'at the entry with the longest prefix its digits start with, else at perSmsCost. null or []: none';
