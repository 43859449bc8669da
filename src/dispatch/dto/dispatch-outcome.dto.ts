import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsPositive, Max } from 'class-validator';
import { MAX_ID } from '../../common/validation/positive-id.pipe';
import { IsIntegerFrom, IsOptionalSignedAmount } from '../../common/validation/decorators';
import { IsOptionalDestination } from '../../common/validation/destinations';
import { Amount } from '../../common/exact-amount';
import { AnswerOf } from '../../common/answer';

export const MAX_REPORTED_MESSAGES = 100_000;

export class OutcomeReportDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_ID, example: 12 })
  @Max(MAX_ID)
  @IsPositive()
  @IsInt()
  smsConfigId: number;

  @IsIntegerFrom(0, MAX_REPORTED_MESSAGES, {
    example: 40,
    description: 'Messages the provider accepted: the balance goes down by perSmsCost × sent, and one send makes it healthy',
  })
  sent: number;

  @IsIntegerFrom(0, MAX_REPORTED_MESSAGES, {
    example: 0,
    description: 'Messages the provider failed: 5 in a row, with no send between, make it unhealthy',
  })
  failed: number;

  @IsIntegerFrom(0, MAX_REPORTED_MESSAGES, {
    optional: true,
    default: 0,
    example: 38,
    description:
      "Delivery receipts the provider gave as delivered: with destination, they count toward the configuration's deliveryRate at the " +
      "destination's calling code (route's candidates); they move no balance, health or daily sum",
  })
  delivered?: number;

  @IsIntegerFrom(0, MAX_REPORTED_MESSAGES, {
    optional: true,
    default: 0,
    example: 2,
    description: 'Delivery receipts the provider gave as not delivered (expired, rejected by the network), as delivered',
  })
  undelivered?: number;

  @IsIntegerFrom(0, MAX_REPORTED_MESSAGES, {
    optional: true,
    default: 0,
    example: 40,
    description: 'Of sent, the one-time codes (at most sent): with destination, the pumping guard compares them with verified per range',
  })
  codesSent?: number;

  @IsIntegerFrom(0, MAX_REPORTED_MESSAGES, {
    optional: true,
    default: 0,
    example: 31,
    description:
      'Codes the end users entered since the last report (to the same destination range): pumped codes arrive but are never entered',
  })
  verified?: number;

  @IsOptionalSignedAmount({
    example: 118.25,
    description: "The provider's own balance, as read from balanceUrl: set as the balance instead of debiting. At most 6 decimal places",
  })
  balance?: number;

  @IsOptionalDestination({
    description:
      "Where the sent messages went: the debit is sent × the configuration's price there (its destinationPrices entry of the " +
      'longest prefix, else perSmsCost); without it, sent × perSmsCost. Read as its E.164 form (+4407400123456 counts as ' +
      '+447400123456); a number of no known calling code, or impossible for its country, counts as a report without destination',
  })
  destination?: string;
}

export class OutcomeDto {
  @ApiProperty({ example: 12 })
  smsConfigId: number;

  @ApiProperty({ type: Number, example: 117.75, description: 'The balance after this report' })
  balance: Amount;

  @ApiProperty({ description: 'false from the fifth failure in a row until a report with a send' })
  healthy: boolean;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Skipped by routing until then, offered again (last) after it; null while healthy',
  })
  unhealthyUntil: string | null;
}

export class OutcomeResponseDto extends AnswerOf(OutcomeDto) {}
