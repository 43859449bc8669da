import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, ValidateIf } from 'class-validator';
import { IsIntegerFrom, isSent } from '../../common/validation/decorators';
import { AnswerOf } from '../../common/answer';

export const DEFAULT_GRACE_SECONDS = 86_400;
export const MAX_GRACE_SECONDS = 604_800;

export class RotateSecretKeyDto {
  // One message for every graceSeconds refused: class-validator alone would name only the first rule it ran.
  @IsIntegerFrom(0, MAX_GRACE_SECONDS, {
    optional: true,
    default: DEFAULT_GRACE_SECONDS,
    description: 'How long the previous key keeps working; 0 revokes it at once',
  })
  graceSeconds?: number;

  @ApiPropertyOptional({
    default: false,
    description:
      'true deletes every scoped key of the client in the same change, each audited and published as client.key-deleted: ' +
      'after a leak, with graceSeconds 0, it ends every key a thief may have made',
  })
  @IsBoolean({ message: 'deleteScopedKeys must be true or false' })
  @ValidateIf(isSent)
  deleteScopedKeys?: boolean;
}

export class RotatedSecretKeyDto {
  @ApiProperty({ example: 'sk_3q2-7wEh8yQ0m1c9tXv5bJ4n6kP2rL8sD0fG1hJ2kL3', description: 'The new key; it works at once' })
  secretKey: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-25T10:15:30.123Z',
    description: 'When the previous key stops working (ISO-8601 UTC); null when graceSeconds was 0',
  })
  previousKeyExpiresAt: string | null;
}

export class RotatedSecretKeyResponseDto extends AnswerOf(RotatedSecretKeyDto) {}
