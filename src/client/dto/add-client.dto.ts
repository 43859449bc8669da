import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { IsHttpUrl } from '../../common/validation/decorators';

export class AddClientDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Billing' })
  @Length(1, 100)
  @IsString()
  appName: string;

  @ApiProperty({ format: 'uri', maxLength: 2048, example: 'https://billing.example.com' })
  @IsHttpUrl()
  appUrl: string;

  @ApiPropertyOptional({ maxLength: 1000, example: 'Sends invoices' })
  @IsOptional()
  @MaxLength(1000)
  @IsString()
  appDescription?: string;

  @ApiPropertyOptional({ maxLength: 100, example: 'twilio' })
  @IsOptional()
  @MaxLength(100)
  @IsString()
  preferredSmsGateway?: string;

  @ApiProperty({ example: false, description: 'A JSON boolean; the string "true" is refused' })
  @IsBoolean()
  isHost: boolean;
}
