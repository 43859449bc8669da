import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsPositive, Max } from 'class-validator';
import { MAX_ID } from '../../common/validation/positive-id.pipe';

export class ClientIdDto {
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_ID,
    example: 1,
    description: "Must be the id of the secretKey's client; null: not given",
  })
  @IsOptional()
  @Max(MAX_ID)
  @IsPositive()
  @IsInt()
  clientId?: number;
}
