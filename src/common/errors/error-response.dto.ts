import { ApiProperty } from '@nestjs/swagger';

export class ErrorResponseDto {
  @ApiProperty({ example: 400, description: 'Mirrors the HTTP status' })
  status: number;

  @ApiProperty({ example: 'appName must be a string; isHost must be a boolean value' })
  error: string;
}
