import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { IsDecimalAmount, IsHttpUrl } from '../../common/validation/decorators';
import { ClientIdDto } from './client-id.dto';

export class AddSmsConfigDto extends ClientIdDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'twilio' })
  @Length(1, 100)
  @IsString()
  providerName: string;

  @ApiProperty({ format: 'uri', maxLength: 2048, example: 'https://api.twilio.com/send', description: "The provider's send endpoint" })
  @IsHttpUrl()
  smsApi: string;

  @ApiPropertyOptional({ format: 'uri', maxLength: 2048, example: 'https://twilio.com', description: 'The provider portal' })
  @IsOptional()
  @IsHttpUrl()
  providerUrl?: string;

  @ApiPropertyOptional({ format: 'uri', maxLength: 2048, example: 'https://api.twilio.com/balance' })
  @IsOptional()
  @IsHttpUrl()
  balanceUrl?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'Login name at the provider' })
  @IsOptional()
  @MaxLength(255)
  @IsString()
  username?: string;

  @ApiPropertyOptional({ maxLength: 1024, description: 'Stored encrypted; never returned' })
  @IsOptional()
  @MaxLength(1024)
  @IsString()
  password?: string;

  @ApiPropertyOptional({ maxLength: 4096, description: 'Stored encrypted; never returned' })
  @IsOptional()
  @MaxLength(4096)
  @IsString()
  apiKey?: string;

  @ApiPropertyOptional({ maxLength: 20, example: 'ACME' })
  @IsOptional()
  @MaxLength(20)
  @IsString()
  senderId?: string;

  @ApiPropertyOptional({ maxLength: 50, example: 'Transactional', description: 'Free text; usually Transactional or Promotional' })
  @IsOptional()
  @MaxLength(50)
  @IsString()
  smsType?: string;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 1e12,
    exclusiveMaximum: true,
    example: 12.5,
    default: 0,
    description:
      'At most 6 decimal places, and kept exactly as sent: a number a double would change (more than 15 significant digits, such as 8589934592.000001) is refused with 400',
  })
  @IsOptional()
  @IsDecimalAmount()
  balance?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 1e12,
    exclusiveMaximum: true,
    example: 0.0125,
    default: 0,
    description:
      'At most 6 decimal places, and kept exactly as sent: a number a double would change (more than 15 significant digits, such as 8589934592.000001) is refused with 400',
  })
  @IsOptional()
  @IsDecimalAmount()
  perSmsCost?: number;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  isActive?: boolean;
}
