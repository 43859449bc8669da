import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { IsHttpUrl, IsOptionalText, IsText } from '../../common/validation/decorators';

export class AddClientDto {
  @IsText(1, 100, { example: 'Billing' })
  appName: string;

  @IsHttpUrl({ example: 'https://billing.example.com' })
  appUrl: string;

  @IsOptionalText(1000, { example: 'Sends invoices' })
  appDescription?: string;

  @IsOptionalText(100, { example: 'twilio' })
  preferredSmsGateway?: string;

  @ApiProperty({ example: false, description: 'A JSON boolean; the string "true" is refused' })
  @IsBoolean()
  isHost: boolean;
}
