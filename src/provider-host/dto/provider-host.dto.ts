import { ApiProperty } from '@nestjs/swagger';
import { IsOptionalPlainText, IsText, PUBLIC_HOST_RULE } from '../../common/validation/decorators';
import { AnswerOf } from '../../common/answer';

export class ApproveProviderHostDto {
  @IsText(1, 255, {
    example: 'api.provider.com',
    description:
      'A DNS name (upper case and Unicode converted as in URLs, a trailing dot removed), *. and a name (every name under it, not ' +
      'the name itself; not over a public suffix such as *.com or *.co.uk), or an IP address (IPv6 without brackets). No ' +
      `scheme, port or path: they are not part of the approval. ${PUBLIC_HOST_RULE}`,
  })
  host: string;

  @IsOptionalPlainText(200, { example: 'Twilio, contract 2026-114' })
  note?: string | null;
}

export class ProviderHostDto {
  @ApiProperty({ example: 1 })
  providerHostId: number;

  @ApiProperty({ example: 'api.provider.com' })
  host: string;

  @ApiProperty({ type: String, nullable: true, example: 'Twilio, contract 2026-114' })
  note: string | null;

  @ApiProperty({ example: '2026-11-24T10:15:30.123Z' })
  createdAt: string;
}

export class ProviderHostResponseDto extends AnswerOf(ProviderHostDto) {}

export class ProviderHostPageDto {
  @ApiProperty({ type: [ProviderHostDto], description: 'By providerHostId ascending' })
  items: ProviderHostDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as ?cursor= for the next page; null on the last page' })
  nextCursor: string | null;
}

export class ProviderHostPageResponseDto extends AnswerOf(ProviderHostPageDto) {}

export class DeletedProviderHostDto {
  @ApiProperty({ example: 1 })
  providerHostId: number;

  @ApiProperty({ example: true })
  deleted: true;
}

export class DeletedProviderHostResponseDto extends AnswerOf(DeletedProviderHostDto) {}
