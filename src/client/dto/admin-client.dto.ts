import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, ValidateIf } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/page';
import { Amount } from '../../common/exact-amount';
import {
  IsHttpUrl,
  IsNullableIntegerFrom,
  IsOptionalAmount,
  IsOptionalPlainText,
  IsOptionalText,
  IsPlainText,
  NullClears,
  isSent,
} from '../../common/validation/decorators';
import { IsOptionalDestinationPrefixes } from '../../common/validation/destinations';
import { AnswerOf } from '../../common/answer';
import { PUMPING_GUARDS, PumpingGuard } from '../client.entity';

const ALLOWED_DESTINATIONS_DESCRIPTION =
  'E.164 prefixes without + (1 to 7 digits, at most 300, in the order given): route then requires a destination that one of ' +
  'them starts (else 400 without one, 403 outside them). Null: any destination. Prefix 1 admits every country of the North ' +
  'American plan, its Caribbean premium-rate ranges included';

export const MAX_DAILY_SMS_LIMIT = 100_000_000;

const DAILY_SPEND_LIMIT_DESCRIPTION =
  "Route skips each configuration whose price × count would take spentToday past it (reason spend-limit). Prices are the client's " +
  'own to set, so a leaked secretKey can price every message at 0: only dailySmsLimit holds against that. Null: no limit';
const PUMPING_GUARD_DESCRIPTION =
  'off: no pumping counts are kept for the client. monitor: a range whose messages jump (velocity) or whose codes are not ' +
  'entered (conversion) is suspected, audited and published as client.pumping-suspected, and nothing is refused. block: as ' +
  'monitor, published as client.pumping-blocked, and route refuses a suspected range with 403 until the suspicion ends or ' +
  'is lifted (POST /api/v1/pumping-ranges/{pumpingRangeId}/lift)';
const ALLOW_PREMIUM_NUMBERS_DESCRIPTION =
  'false: route refuses with 403 a destination that is a premium-rate or shared-cost number (by libphonenumber-js metadata; an ' +
  'untyped number passes). true: route sends to them';

const DAILY_SMS_LIMIT_DESCRIPTION =
  'Route skips every configuration when sentToday + count would pass it (reason sms-limit), whatever the prices. Null: no limit';

// Never a key, a digest or a provider credential.
export class AdminClientDto {
  @ApiProperty({ example: 7 })
  clientId: number;

  @ApiProperty({ example: 'Billing' })
  appName: string;

  @ApiProperty({ type: String, nullable: true })
  appDescription: string | null;

  @ApiProperty({ example: 'https://billing.example.com' })
  appUrl: string;

  @ApiProperty({ type: String, nullable: true })
  preferredSmsGateway: string | null;

  @ApiProperty({ type: String, nullable: true })
  preferredEmailGateway: string | null;

  @ApiProperty({ type: String, nullable: true })
  preferredPushNotificationGateway: string | null;

  @ApiProperty()
  isHost: boolean;

  @ApiProperty({ description: "false: the client's keys are refused with 403 Client is disabled" })
  isActive: boolean;

  @ApiProperty({ example: 2 })
  smsConfigCount: number;

  @ApiProperty({ example: '2026-11-24T10:15:30.123Z' })
  createdAt: string;

  @ApiProperty({ example: '2026-11-24T10:15:30.123Z' })
  updatedAt: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  secretKeyRotatedAt: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-24T10:15:30.123Z',
    description: 'When the current key was last used, as the instances wrote it (every KEY_USAGE_FLUSH_MS); null: not since it was made',
  })
  secretKeyLastUsedAt: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '203.0.113.7',
    description:
      "The caller's address at the key's last direct use (after TRUST_PROXY, without a port a proxy appended, the full address; an " +
      "IPv4-mapped one as IPv4): a route call, made from the dispatcher's address, moves secretKeyLastUsedAt only. One address a key " +
      'a flush interval, the latest. null: not used since it was made, or last used before the service kept it',
  })
  secretKeyLastUsedFrom: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'When the previous key (during a rotation’s grace) was last used; null when there is none, or it was not used',
  })
  previousSecretKeyLastUsedAt: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description:
      "The caller's address at the previous key's last use, as secretKeyLastUsedFrom; null when there is none, or it was not used",
  })
  previousSecretKeyLastUsedFrom: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'When the previous key stops working; null when there is none' })
  previousKeyExpiresAt: string | null;

  @ApiProperty({ type: [String], nullable: true, example: ['44', '33'], description: ALLOWED_DESTINATIONS_DESCRIPTION })
  allowedDestinations: string[] | null;

  @ApiProperty({ type: Number, nullable: true, example: 250, description: DAILY_SPEND_LIMIT_DESCRIPTION })
  dailySpendLimit: Amount | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 20000, description: DAILY_SMS_LIMIT_DESCRIPTION })
  dailySmsLimit: number | null;

  @ApiProperty({
    type: Number,
    example: 12.5,
    description:
      "The exact sum of price × sent over the client's outcome reports since 00:00 UTC, whether or not a report also set a balance",
  })
  spentToday: Amount;

  @ApiProperty({ type: 'integer', example: 500, description: "The sum of sent over the client's outcome reports since 00:00 UTC" })
  sentToday: number;

  @ApiProperty({ enum: PUMPING_GUARDS, example: 'monitor', description: PUMPING_GUARD_DESCRIPTION })
  pumpingGuard: PumpingGuard;

  @ApiProperty({ example: false, description: ALLOW_PREMIUM_NUMBERS_DESCRIPTION })
  allowPremiumNumbers: boolean;
}

export class AdminClientResponseDto extends AnswerOf(AdminClientDto) {}

export class AdminClientPageDto {
  @ApiProperty({ type: [AdminClientDto], description: 'By clientId ascending' })
  items: AdminClientDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as ?cursor= for the next page; null on the last page' })
  nextCursor: string | null;
}

export class AdminClientPageResponseDto extends AnswerOf(AdminClientPageDto) {}

export class ClientListQueryDto extends PageQueryDto {
  @IsOptionalText(100, { description: 'Only clients whose appName starts with this (case-insensitive)' })
  appName?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'true: only clients whose previous key was used in the last 2 × KEY_USAGE_FLUSH_MS; false: only the others',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'previousKeyInUse must be true or false' })
  previousKeyInUse?: 'true' | 'false';
}

// Any non-empty subset; null clears an optional string.
@NullClears()
export class UpdateClientDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @IsPlainText(1, 100)
  @ValidateIf(isSent)
  appName?: string;

  @IsOptionalPlainText(1000)
  appDescription?: string | null;

  @ApiPropertyOptional()
  @IsHttpUrl()
  @ValidateIf(isSent)
  appUrl?: string;

  @IsOptionalPlainText(100)
  preferredSmsGateway?: string | null;

  @IsOptionalPlainText(100)
  preferredEmailGateway?: string | null;

  @IsOptionalPlainText(100)
  preferredPushNotificationGateway?: string | null;

  @ApiPropertyOptional({ description: 'A JSON boolean' })
  @IsBoolean()
  @ValidateIf(isSent)
  isHost?: boolean;

  @ApiPropertyOptional({ description: 'false disables the client (its keys get 403 within 1 s on every instance); true enables it' })
  @IsBoolean()
  @ValidateIf(isSent)
  isActive?: boolean;

  @IsOptionalDestinationPrefixes({ description: `${ALLOWED_DESTINATIONS_DESCRIPTION}; null admits any again` })
  allowedDestinations?: string[] | null;

  @IsOptionalAmount({ default: undefined, description: DAILY_SPEND_LIMIT_DESCRIPTION })
  dailySpendLimit?: number | null;

  @IsNullableIntegerFrom(1, MAX_DAILY_SMS_LIMIT, { description: DAILY_SMS_LIMIT_DESCRIPTION })
  dailySmsLimit?: number | null;

  @ApiPropertyOptional({ enum: PUMPING_GUARDS, description: `${PUMPING_GUARD_DESCRIPTION}. Null is refused` })
  @IsIn(PUMPING_GUARDS, { message: `pumpingGuard must be one of: ${PUMPING_GUARDS.join(', ')}` })
  @ValidateIf(isSent)
  pumpingGuard?: PumpingGuard;

  @ApiPropertyOptional({ description: `A JSON boolean. ${ALLOW_PREMIUM_NUMBERS_DESCRIPTION}. Null is refused` })
  @IsBoolean()
  @ValidateIf(isSent)
  allowPremiumNumbers?: boolean;
}

export class DeletedClientDto {
  @ApiProperty({ example: 7 })
  clientId: number;

  @ApiProperty({ example: true })
  deleted: true;
}

export class DeletedClientResponseDto extends AnswerOf(DeletedClientDto) {}
