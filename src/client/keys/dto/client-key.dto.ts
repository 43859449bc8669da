import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, ValidateBy, ValidationArguments } from 'class-validator';
import { MAX_ALLOWED_SOURCES, readAllowedSources } from '../../../auth/allowed-sources';
import { readExpiresAt } from '../../../auth/key-expiry';
import { DISPATCH_ONLY_WITH_SOURCES, KEY_SCOPES, KeyScope, isDispatchOnly, readScopes } from '../../../auth/key-scopes';
import { AnswerOf } from '../../../common/answer';
import { PageQueryDto } from '../../../common/pagination/page';
import { IsPlainText } from '../../../common/validation/decorators';

export const MAX_SCOPED_KEYS = 20;
export const TOO_MANY_SCOPED_KEYS = `a client has at most ${MAX_SCOPED_KEYS} scoped keys`;

type Reading = { refusal: string } | object;

// A field read by one of the key readers of auth/, refused in the reader's own words.
function ReadBy(name: string, read: (value: unknown, request: CreateClientKeyDto) => Reading): PropertyDecorator {
  const refusalOf = (args?: ValidationArguments) => {
    const reading = read(args?.value, args?.object as CreateClientKeyDto);
    return 'refusal' in reading ? reading.refusal : undefined;
  };
  return ValidateBy({
    name,
    validator: { validate: (_value, args) => refusalOf(args) === undefined, defaultMessage: (args) => refusalOf(args) ?? '' },
  });
}

// Checked against the scopes here, so that its refusal comes with the other fields'.
function readAllowedSourcesOf(value: unknown, request: CreateClientKeyDto): Reading {
  const scopes = readScopes(request.scopes);
  if ('scopes' in scopes && isDispatchOnly(scopes.scopes)) return { refusal: DISPATCH_ONLY_WITH_SOURCES };
  return readAllowedSources(value);
}

export class CreateClientKeyDto {
  @IsPlainText(1, 100, {
    example: 'billing-service',
    description: 'Who holds the key, for the people who read the list; need not be unique',
  })
  name: string;

  @ApiProperty({
    enum: KEY_SCOPES,
    isArray: true,
    minItems: 1,
    uniqueItems: true,
    example: ['client:read'],
    description:
      'What the key may do: client:read (get-client, the list and reads of SMS configurations), sms-config:write (add, change, ' +
      'delete and verify-api-key of SMS configurations), dispatch (route, beside the dispatcher key). Answered in that order',
  })
  @ReadBy('scopes', readScopes)
  scopes: KeyScope[];

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '2027-05-01T00:00:00Z',
    description:
      'When the key stops working: an RFC 3339 instant with Z or an offset and at most 3 fraction digits, 60 s to 366 days ahead; ' +
      'null or absent: never',
  })
  @IsOptional()
  @ReadBy('expiresAt', (value) => readExpiresAt(value, Date.now()))
  expiresAt?: string | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    minItems: 1,
    maxItems: MAX_ALLOWED_SOURCES,
    example: ['203.0.113.0/24', '2001:db8::/48'],
    description:
      'The addresses and networks the key may be used from (after TRUST_PROXY): IPv4 in four-part decimal, IPv6 in any spelling, ' +
      'each with an optional prefix (/8 to /32, /7 to /128) and no bits set below it; no IPv4-mapped IPv6 address; each network once. ' +
      'null or absent: any address. ' +
      'Not for a key whose only scope is dispatch, which the dispatcher presents from its own address',
  })
  @IsOptional()
  @ReadBy('allowedSources', readAllowedSourcesOf)
  allowedSources?: string[] | null;
}

export class ClientKeyDto {
  @ApiProperty({ example: 3 })
  keyId: number;

  @ApiProperty({ example: 'billing-service' })
  name: string;

  @ApiProperty({ enum: KEY_SCOPES, isArray: true, example: ['client:read'] })
  scopes: KeyScope[];

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2027-05-01T00:00:00.000Z',
    description: 'When the key stops working, in UTC; null: never',
  })
  expiresAt: string | null;

  @ApiProperty({
    type: [String],
    nullable: true,
    example: ['203.0.113.0/24'],
    description: 'IPv4 as given, IPv6 in RFC 5952 form; null: any address',
  })
  allowedSources: string[] | null;

  @ApiProperty({ example: '2026-11-29T10:15:30.123Z' })
  createdAt: string;
}

export class CreatedClientKeyDto extends ClientKeyDto {
  @ApiProperty({
    example: 'rk_0Vb1jQ8sXr4LmT2yKw9ZpA7cN3dF5gH6uE1iO0aa2Ahk1c',
    description: 'The key: shown here once, and kept only as its digest. rk_, 40 base62 characters and a 6-character checksum',
  })
  secretKey: string;
}

export class ListedClientKeyDto extends ClientKeyDto {
  @ApiProperty({ example: 'rk_0Vb1', description: 'rk_ and the next 4 characters of the key, to tell keys apart' })
  keyStart: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-29T11:02:00.000Z',
    description: 'Last use, noted within the flush interval',
  })
  lastUsedAt: string | null;

  @ApiProperty({ type: String, nullable: true, example: '203.0.113.7', description: 'The address of that use (a route call leaves it)' })
  lastUsedFrom: string | null;

  @ApiProperty({ example: false, description: 'Past expiresAt: unknown everywhere, listed until deleted, and still counted in the 20' })
  expired: boolean;
}

export class ClientKeyPageDto {
  @ApiProperty({ type: [ListedClientKeyDto], description: 'By keyId ascending' })
  items: ListedClientKeyDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as ?cursor= for the next page; null on the last page' })
  nextCursor: string | null;
}

export class DeletedClientKeyDto {
  @ApiProperty({ example: 3 })
  keyId: number;

  @ApiProperty({ example: true })
  deleted: true;
}

export class CreatedClientKeyResponseDto extends AnswerOf(CreatedClientKeyDto) {}
export class ClientKeyPageResponseDto extends AnswerOf(ClientKeyPageDto) {}
export class DeletedClientKeyResponseDto extends AnswerOf(DeletedClientKeyDto) {}
export class ClientKeyListQueryDto extends PageQueryDto {}
