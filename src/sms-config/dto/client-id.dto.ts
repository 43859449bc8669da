import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsPositive } from 'class-validator';

/** `clientId` is optional: the secretKey names the client; when given it must be that client's id (else 403). */
export class ClientIdDto {
  @ApiPropertyOptional({ minimum: 1, example: 1, description: "Must be the id of the secretKey's client" })
  @IsOptional()
  @IsPositive()
  @IsInt()
  clientId?: number;
}
