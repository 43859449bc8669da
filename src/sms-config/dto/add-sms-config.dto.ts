import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import {
  IsOptionalAmount,
  IsOptionalProviderUrl,
  IsOptionalSecret,
  IsOptionalPlainText,
  IsProviderUrl,
  IsPlainText,
} from '../../common/validation/decorators';
import { IsOptionalDestinationPrices } from '../../common/validation/destinations';
import { ClientIdDto } from './client-id.dto';
import { DESTINATION_PRICES_RULE, DestinationPriceDto, RequestedDestinationPrice } from './destination-price.dto';
import { LOW_BALANCE_THRESHOLD_RULE } from './sms-config-lifecycle.dto';

export class AddSmsConfigDto extends ClientIdDto {
  @IsPlainText(1, 100, { example: 'twilio' })
  providerName: string;

  @IsProviderUrl({ example: 'https://api.twilio.com/send', description: "The provider's send endpoint" })
  smsApi: string;

  @IsOptionalProviderUrl({ example: 'https://twilio.com', description: 'The provider portal' })
  providerUrl?: string;

  @IsOptionalProviderUrl({ example: 'https://api.twilio.com/balance' })
  balanceUrl?: string;

  @IsOptionalPlainText(255, { description: 'Login name at the provider' })
  username?: string;

  @IsOptionalSecret(1024, { description: 'Stored encrypted; never returned. null is refused' })
  password?: string;

  @IsOptionalSecret(4096, { description: 'Stored encrypted; never returned. null is refused' })
  apiKey?: string;

  @IsOptionalPlainText(20, { example: 'ACME' })
  senderId?: string;

  @IsOptionalPlainText(50, { example: 'Transactional', description: 'Free text; usually Transactional or Promotional' })
  smsType?: string;

  @IsOptionalAmount({ example: 12.5 })
  balance?: number;

  @IsOptionalAmount({ example: 0.0125 })
  perSmsCost?: number;

  @IsOptionalAmount({ example: 5, default: null, description: LOW_BALANCE_THRESHOLD_RULE })
  lowBalanceThreshold?: number | null;

  @IsOptionalDestinationPrices({ type: [DestinationPriceDto], description: DESTINATION_PRICES_RULE })
  destinationPrices?: RequestedDestinationPrice[] | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, default: true, description: 'null: not given (true)' })
  @IsOptional()
  @IsBoolean()
  isActive?: boolean;
}
