import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsString, ValidateIf } from 'class-validator';
import { ShownFirst, answerFieldsOf } from '../../common/answer-fields';
import {
  IsOptionalAmount,
  IsOptionalProviderUrl,
  IsOptionalPlainText,
  IsOptionalText,
  IsProviderUrl,
  IsPlainText,
  NullClears,
  isSent,
} from '../../common/validation/decorators';
import { IsOptionalDestinationPrices } from '../../common/validation/destinations';
import { DESTINATION_PRICES_RULE, DestinationPriceDto, RequestedDestinationPrice } from './destination-price.dto';
import { SmsConfigViewDto } from './sms-config-response.dto';
import { AnswerOf } from '../../common/answer';

export const LOW_BALANCE_THRESHOLD_RULE =
  'A dispatch report that takes the balance below it publishes sms-config.balance-low, once until the balance is back at it or above; null: none';

@NullClears()
export class UpdateSmsConfigDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @IsPlainText(1, 100)
  @ValidateIf(isSent)
  providerName?: string;

  @ApiPropertyOptional()
  @IsProviderUrl()
  @ValidateIf(isSent)
  smsApi?: string;

  @IsOptionalProviderUrl()
  providerUrl?: string | null;

  @IsOptionalProviderUrl()
  balanceUrl?: string | null;

  @IsOptionalPlainText(255)
  username?: string | null;

  @IsOptionalText(1024, {
    description:
      'Replaces the sealed password (never returned); null removes it. Required, with a stored apiKey, to change smsApi, ' +
      'providerUrl, balanceUrl or username. Earlier verifyApiKey tokens turn stale',
  })
  password?: string | null;

  @IsOptionalText(4096, {
    description: 'Replaces the sealed apiKey (never returned); null removes it. Earlier verifyApiKey tokens turn stale',
  })
  apiKey?: string | null;

  @IsOptionalPlainText(20)
  senderId?: string | null;

  @IsOptionalPlainText(50)
  smsType?: string | null;

  @IsOptionalAmount({ default: undefined })
  balance?: number | null;

  @IsOptionalAmount({ default: undefined })
  perSmsCost?: number | null;

  @IsOptionalAmount({ default: undefined, description: LOW_BALANCE_THRESHOLD_RULE })
  lowBalanceThreshold?: number | null;

  @IsOptionalDestinationPrices({ type: [DestinationPriceDto], description: `${DESTINATION_PRICES_RULE}. Replaces the list whole` })
  destinationPrices?: RequestedDestinationPrice[] | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, description: 'null sets it back to true' })
  @IsBoolean()
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  isActive?: boolean | null;
}

export class SmsConfigResponseDto extends AnswerOf(SmsConfigViewDto) {}

export class UpdatedSmsConfigDto extends SmsConfigViewDto {
  @ApiProperty({ minLength: 64, description: 'A fresh token for the configuration as it now is' })
  verifyApiKey: string;
}

export const UPDATED_SMS_CONFIG_FIELDS = answerFieldsOf(UpdatedSmsConfigDto);

export class UpdatedSmsConfigResponseDto extends AnswerOf(UpdatedSmsConfigDto) {}

export class DeletedSmsConfigDto {
  @ApiProperty({ example: 12 })
  smsConfigId: number;

  @ApiProperty({ example: true })
  deleted: true;
}

export class DeletedSmsConfigResponseDto extends AnswerOf(DeletedSmsConfigDto) {}

export class ResolveCredentialsDto {
  @ApiProperty({
    minLength: 1,
    description: 'The token from add, change or verify-api-key, exactly as it was issued: any other text is refused',
  })
  @IsString()
  @IsNotEmpty()
  verifyApiKey: string;
}

// The one answer that holds the provider secrets; prices are route's to apply, not the dispatcher's. It begins with what
// a dispatcher sends by: which configuration, where to, with which credentials.
@ShownFirst('smsConfigId', 'clientId', 'providerName', 'providerUrl', 'smsApi', 'balanceUrl', 'username', 'password', 'apiKey')
export class ResolvedSmsConfigDto extends OmitType(SmsConfigViewDto, ['destinationPrices'] as const) {
  @ApiProperty({ example: 7 })
  clientId: number;

  @ApiProperty({ type: String, nullable: true, description: 'The provider password, opened' })
  password: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The provider apiKey, opened' })
  apiKey: string | null;
}

export const RESOLVED_SMS_CONFIG_FIELDS = answerFieldsOf(ResolvedSmsConfigDto);

export class ResolvedSmsConfigResponseDto extends AnswerOf(ResolvedSmsConfigDto) {}
