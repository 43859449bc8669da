import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsPositive } from 'class-validator';

export class ClientIdDto {
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    example: 1,
    description: "Must be the id of the secretKey's client; null: not given",
  })
  @IsOptional()
  @IsPositive()
  @IsInt()
  clientId?: number;
}
