import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIntegerFrom, IsOptionalText } from '../../common/validation/decorators';
import { IsOptionalDestination } from '../../common/validation/destinations';
import { SKIP_REASONS, SkipReason } from '../dispatch-routing';
import { Amount } from '../../common/exact-amount';
import { AnswerOf } from '../../common/answer';

export const MAX_ROUTED_COUNT = 10_000;

export class RouteRequestDto {
  @IsOptionalText(50, { example: 'Transactional', description: 'Only configurations of this smsType (case-insensitive)' })
  smsType?: string;

  @IsIntegerFrom(1, MAX_ROUTED_COUNT, {
    optional: true,
    default: 1,
    description: 'Messages about to be sent: a usable configuration has a balance of at least perSmsCost × count',
  })
  count?: number;

  @IsOptionalDestination({
    description:
      "Where the messages go: every configuration is priced for it (its destinationPrices entry of the longest prefix the number's " +
      'digits start with, else its perSmsCost), and candidates are ordered, checked against their balance and shown at that price. ' +
      'It must be a possible number in its E.164 form: a known calling code, a length possible for its country, and no other ' +
      'spelling of the number (no trunk 0 after the calling code: +447400123456, not +4407400123456)',
  })
  destination?: string;
}

export class RouteCandidateDto {
  @ApiProperty({ example: 12 })
  smsConfigId: number;

  @ApiProperty({ example: 'twilio' })
  providerName: string;

  @ApiProperty({ example: 'https://api.twilio.com/send' })
  smsApi: string;

  @ApiProperty({ type: String, nullable: true })
  senderId: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Transactional' })
  smsType: string | null;

  @ApiProperty({ type: Number, example: 12.5 })
  balance: Amount;

  @ApiProperty({ type: Number, example: 0.0125, description: 'The price of one message, at the destination when one was given' })
  perSmsCost: Amount;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '447',
    description: 'Only when a destination was given: the destinationPrices prefix that priced it, or null for perSmsCost',
  })
  pricePrefix?: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: 0.9625,
    description:
      'Only when a destination was given: delivered ÷ (delivered + undelivered) of the receipts reported for this configuration at the ' +
      "destination's calling code over DELIVERY_RATE_WINDOW_MS, floored to 4 decimals; null under DELIVERY_RATE_MIN_RECEIPTS receipts " +
      'or for a calling code no country has. Under DELIVERY_RATE_DEMOTE_BELOW the candidate comes after the others',
  })
  deliveryRate?: number | null;

  @ApiProperty({ minLength: 64, description: 'Resolve it (POST /api/v1/sms-configs/resolve) for the candidate used' })
  verifyApiKey: string;
}

export const ROUTE_CANDIDATE_FIELDS = [
  'smsConfigId',
  'providerName',
  'smsApi',
  'senderId',
  'smsType',
  'balance',
  'perSmsCost',
  'pricePrefix',
  'deliveryRate',
  'verifyApiKey',
] as const satisfies ReadonlyArray<keyof RouteCandidateDto>;

// Without a destination, a candidate is what it was before prices per destination.
export const ROUTE_CANDIDATE_FIELDS_WITHOUT_DESTINATION = ROUTE_CANDIDATE_FIELDS.filter(
  (field) => field !== 'pricePrefix' && field !== 'deliveryRate',
);

export class SkippedSmsConfigDto {
  @ApiProperty({ example: 13 })
  smsConfigId: number;

  @ApiProperty({
    enum: SKIP_REASONS,
    description:
      'The first that applies, in this order: inactive (isActive false), unapproved (its host is not an approved provider ' +
      "destination), smsType (another type was asked), sms-limit (the client's sentToday + count would pass its dailySmsLimit), " +
      "spend-limit (the client's spentToday + price × count would pass its dailySpendLimit), unhealthy (5 failures in a row, " +
      'for DISPATCH_UNHEALTHY_MS), balance (under price × count)',
  })
  reason: SkipReason;
}

export class RouteDto {
  @ApiProperty({ example: 7 })
  clientId: number;

  @ApiProperty({
    type: [RouteCandidateDto],
    description:
      "In the order to try them: the client's preferredSmsGateway (case-insensitive) first, then lower perSmsCost, " +
      'higher balance, lower smsConfigId (each cost at the destination when one was given); with a destination, those whose ' +
      'deliveryRate is under DELIVERY_RATE_DEMOTE_BELOW come after the others, in the same order (a demoted preferred gateway ' +
      'is no longer first); a configuration offered again after being unhealthy comes last. Empty when none is usable',
  })
  candidates: RouteCandidateDto[];

  @ApiProperty({ type: [SkippedSmsConfigDto], description: 'Every other configuration of the client, by smsConfigId' })
  skipped: SkippedSmsConfigDto[];
}

export class RouteResponseDto extends AnswerOf(RouteDto) {}
