import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { IsHttpUrl, IsOptionalAmount, IsOptionalHttpUrl, IsOptionalText, IsText } from '../../common/validation/decorators';
import { ClientIdDto } from './client-id.dto';

export class AddSmsConfigDto extends ClientIdDto {
  @IsText(1, 100, { example: 'twilio' })
  providerName: string;

  @IsHttpUrl({ example: 'https://api.twilio.com/send', description: "The provider's send endpoint" })
  smsApi: string;

  @IsOptionalHttpUrl({ example: 'https://twilio.com', description: 'The provider portal' })
  providerUrl?: string;

  @IsOptionalHttpUrl({ example: 'https://api.twilio.com/balance' })
  balanceUrl?: string;

  @IsOptionalText(255, { description: 'Login name at the provider' })
  username?: string;

  @IsOptionalText(1024, { description: 'Stored encrypted; never returned' })
  password?: string;

  @IsOptionalText(4096, { description: 'Stored encrypted; never returned' })
  apiKey?: string;

  @IsOptionalText(20, { example: 'ACME' })
  senderId?: string;

  @IsOptionalText(50, { example: 'Transactional', description: 'Free text; usually Transactional or Promotional' })
  smsType?: string;

  @IsOptionalAmount({ example: 12.5 })
  balance?: number;

  @IsOptionalAmount({ example: 0.0125 })
  perSmsCost?: number;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  isActive?: boolean;
}
