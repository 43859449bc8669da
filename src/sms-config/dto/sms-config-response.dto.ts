import { ApiProperty } from '@nestjs/swagger';
import { ShownFirst, answerFieldsOf } from '../../common/answer-fields';
import { Amount } from '../../common/exact-amount';
import { DestinationPriceDto } from './destination-price.dto';
import { AnswerOf } from '../../common/answer';

// The seed's ten fields only: a field added since never shows in the seed's answers.
export class SmsConfigSummaryDto {
  @ApiProperty({ example: 'twilio' })
  providerName: string;

  @ApiProperty({ type: String, nullable: true })
  providerUrl: string | null;

  @ApiProperty({ type: String, nullable: true })
  username: string | null;

  @ApiProperty({ type: String, nullable: true })
  senderId: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Transactional' })
  smsType: string | null;

  @ApiProperty({ example: 'https://api.twilio.com/send' })
  smsApi: string;

  @ApiProperty({ type: String, nullable: true })
  balanceUrl: string | null;

  @ApiProperty({ type: Number, example: 12.5 })
  balance: Amount;

  @ApiProperty({ type: Number, example: 0.0125 })
  perSmsCost: Amount;

  @ApiProperty()
  isActive: boolean;
}

export const GET_CLIENT_SMS_CONFIG_FIELDS = answerFieldsOf(SmsConfigSummaryDto);

@ShownFirst('smsConfigId')
export class SmsConfigDto extends SmsConfigSummaryDto {
  @ApiProperty({ example: 1 })
  smsConfigId: number;
}

export const SMS_CONFIG_LIST_FIELDS = answerFieldsOf(SmsConfigDto);

export class SmsConfigViewDto extends SmsConfigDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 5,
    description: 'A dispatch report that takes the balance below it publishes sms-config.balance-low (once per crossing); null: none',
  })
  lowBalanceThreshold: Amount | null;

  @ApiProperty({
    description:
      'Whether the hosts of smsApi, providerUrl and balanceUrl are all approved provider hosts (GET /api/v1/provider-hosts): ' +
      'false, dispatch route skips it (unapproved) and resolve refuses it with 409',
  })
  destinationApproved: boolean;

  @ApiProperty({
    type: [DestinationPriceDto],
    nullable: true,
    description: 'Prices per destination prefix, in the order given; null: none (every destination at perSmsCost)',
  })
  destinationPrices: DestinationPriceDto[] | null;
}

export const SMS_CONFIG_VIEW_FIELDS = answerFieldsOf(SmsConfigViewDto);

// Whether the destination is approved is judged apart, from the approved host list.
export type StoredSmsConfigView = Omit<SmsConfigViewDto, 'destinationApproved'>;

export class SmsConfigListResponseDto extends AnswerOf([SmsConfigDto], 'Ordered by smsConfigId ascending') {}

export class VerifyApiKeyDto {
  @ApiProperty({ minLength: 64, description: 'Opaque token sealed by the server over the configuration, its client and its apiKey' })
  verifyApiKey: string;
}

export class AddSmsConfigResponseDto extends AnswerOf(VerifyApiKeyDto) {}
