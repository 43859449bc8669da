import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { AnswerOf } from '../../common/answer';
import { IsOptionalQueryInteger, PageQueryDto } from '../../common/pagination/page';
import { MAX_ID } from '../../common/validation/positive-id.pipe';
import { PUMPING_SIGNALS, PumpingSignal } from '../pumping-range.entity';

const STANDING = 'until in the future and not lifted';

export class PumpingRangeDto {
  @ApiProperty({ example: 3 })
  pumpingRangeId: number;

  @ApiProperty({ example: 7 })
  clientId: number;

  @ApiProperty({ example: '+44740012xxxx', description: 'The destinations suspected: the number with its last 4 digits as xxxx' })
  range: string;

  @ApiProperty({
    enum: PUMPING_SIGNALS,
    isArray: true,
    example: ['velocity'],
    description:
      'What raised the suspicion, in this order: velocity (the range sent more than its floor and the factor times the ' +
      "client's highest window of the 7 days before), conversion (too few of its codes were entered)",
  })
  signals: PumpingSignal[];

  @ApiProperty({ type: 'integer', example: 412, description: 'Messages sent to the range in the window when the suspicion began' })
  sent: number;

  @ApiProperty({ type: 'integer', example: 400, description: 'Of them, one-time codes' })
  codesSent: number;

  @ApiProperty({ type: 'integer', example: 3, description: 'Codes the end users entered' })
  verified: number;

  @ApiProperty({ example: '2026-11-24T10:15:30.123Z', description: 'When a report found the signal' })
  suspectedAt: string;

  @ApiProperty({
    example: '2026-11-24T11:15:30.123Z',
    description: 'When the suspicion ends by itself (PUMPING_BLOCK_MS after it began); a lift leaves it',
  })
  until: string;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'When an admin lifted it; null when not lifted' })
  liftedAt: string | null;
}

export class PumpingRangeResponseDto extends AnswerOf(PumpingRangeDto) {}

export class PumpingRangePageDto {
  @ApiProperty({ type: [PumpingRangeDto], description: 'Newest first' })
  items: PumpingRangeDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as ?cursor= for the next page; null on the last page' })
  nextCursor: string | null;
}

export class PumpingRangePageResponseDto extends AnswerOf(PumpingRangePageDto) {}

export class PumpingRangeQueryDto extends PageQueryDto {
  @IsOptionalQueryInteger(1, MAX_ID, 'clientId must be a positive integer')
  clientId?: number;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: `true: only the suspicions standing (${STANDING}); false: only the others` })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'standing must be true or false' })
  standing?: 'true' | 'false';
}
