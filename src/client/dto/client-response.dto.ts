import { ApiProperty } from '@nestjs/swagger';
import { answerFieldsOf } from '../../common/answer-fields';
import { SmsConfigSummaryDto } from '../../sms-config/dto/sms-config-response.dto';
import { AnswerOf } from '../../common/answer';

// The seed's fields in its order, never one added since.
export class ClientDto {
  @ApiProperty({ type: String, nullable: true })
  appDescription: string | null;

  @ApiProperty({ example: 'https://billing.example.com' })
  appUrl: string;

  @ApiProperty({ example: 'sk_3q2-7wEh8yQ0m1c9tXv5bJ4n6kP2rL8sD0fG1hJ2kL3', description: 'Identifies the client in later calls' })
  secretKey: string;

  @ApiProperty({ type: String, nullable: true })
  preferredSmsGateway: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'No operation sets it yet' })
  preferredEmailGateway: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'No operation sets it yet' })
  preferredPushNotificationGateway: string | null;

  @ApiProperty()
  isHost: boolean;

  @ApiProperty({
    type: [SmsConfigSummaryDto],
    nullable: true,
    description: 'null while the client has no SMS configuration; else ordered by smsConfigId',
  })
  smsConfig: SmsConfigSummaryDto[] | null;
}

export const CLIENT_FIELDS = answerFieldsOf(ClientDto);

export class ClientResponseDto extends AnswerOf(ClientDto) {}
