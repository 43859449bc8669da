import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { IsHttpUrl, IsOptionalPlainText, IsPlainText } from '../../common/validation/decorators';

export class AddClientDto {
  @IsPlainText(1, 100, { example: 'Billing' })
  appName: string;

  @IsHttpUrl({ example: 'https://billing.example.com' })
  appUrl: string;

  @IsOptionalPlainText(1000, { example: 'Sends invoices' })
  appDescription?: string;

  @IsOptionalPlainText(100, { example: 'twilio' })
  preferredSmsGateway?: string;

  @ApiProperty({ example: false, description: 'A JSON boolean; the string "true" is refused' })
  @IsBoolean()
  isHost: boolean;
}
