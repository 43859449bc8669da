import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { SkipThrottle } from '@nestjs/throttler';
import { DrainingException } from './draining.exception';
import { HealthService } from './health.service';

class HealthStateDto {
  @ApiProperty({ enum: ['up'] })
  database: 'up';

  @ApiProperty({ enum: ['up', 'down'] })
  broker: 'up' | 'down';
}

class HealthResponseDto {
  @ApiProperty({ example: 200 })
  status: 200;

  @ApiProperty({ type: HealthStateDto })
  results: HealthStateDto;
}

@ApiTags('operations')
@SkipThrottle()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  // security: [] says "no credential" explicitly, rather than leaving it unstated.
  @ApiOperation({ summary: 'Readiness: 200 while the database answers; the broker is reported, not required', security: [] })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: ErrorResponseDto, description: 'Database unreachable, or shutting down' })
  async check(): Promise<HealthResponseDto> {
    if (this.health.isShuttingDown) throw new DrainingException();
    if ((await this.health.databaseState()) === 'down') throw new ServiceUnavailableException('database is down');
    return { status: 200, results: { database: 'up', broker: this.health.brokerState } };
  }
}
