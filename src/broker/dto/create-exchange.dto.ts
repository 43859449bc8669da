import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn, IsString, Matches, MaxLength } from 'class-validator';

export const EXCHANGE_TYPES = ['direct', 'fanout', 'topic', 'headers'] as const;
export type ExchangeType = (typeof EXCHANGE_TYPES)[number];

const NOT_RESERVED = /^(?!amq\.)/;
const NAME_CHARACTERS = /^[A-Za-z0-9_.:-]+$/;

export class CreateExchangeDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 255,
    // Both rules in one pattern: a name of these characters, not beginning amq.
    pattern: NOT_RESERVED.source + NAME_CHARACTERS.source.slice(1),
    example: 'notifications.sms',
    description: 'Letters, digits, -, _, . and :; names beginning amq. are reserved by the broker',
  })
  @Matches(NOT_RESERVED, { message: 'name must not begin with amq. (reserved by the broker)' })
  @Matches(NAME_CHARACTERS, { message: 'name must be 1-255 letters, digits, -, _, . or :' })
  @MaxLength(255)
  @IsString()
  @IsDefined({ message: 'name is required' })
  name: string;

  @ApiProperty({ enum: EXCHANGE_TYPES, example: 'topic' })
  @IsIn(EXCHANGE_TYPES, { message: `type must be one of: ${EXCHANGE_TYPES.join(', ')}` })
  @IsDefined({ message: 'type is required' })
  type: ExchangeType;
}

export class ExchangeDetailsDto {
  @ApiProperty({ example: 'notifications.sms' })
  name: string;

  @ApiProperty({ enum: EXCHANGE_TYPES, example: 'topic' })
  type: ExchangeType;
}

export class CreateExchangeResponseDto {
  @ApiProperty({ example: 200 })
  status: 200;

  @ApiProperty({ example: 'Exchange notifications.sms declared' })
  message: string;

  @ApiProperty({ type: ExchangeDetailsDto })
  exchangeDetails: ExchangeDetailsDto;
}
