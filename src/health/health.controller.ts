import { Controller, Get, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { AnswerOf } from '../common/answer';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { AppConfig } from '../config/app-config';
import { DrainingException } from './draining.exception';
import { HealthService } from './health.service';

class HealthStateDto {
  @ApiProperty({ enum: ['up'] })
  database: 'up';

  @ApiProperty({ enum: ['up', 'down'] })
  broker: 'up' | 'down';
}

class HealthResponseDto extends AnswerOf(HealthStateDto) {}

@ApiTags('operations')
@SkipThrottle()
@Controller('health')
export class HealthController {
  private readonly served: boolean;

  constructor(
    private readonly health: HealthService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.served = config.get('opsPort', { infer: true }) === undefined;
  }

  @Get()
  // security: [] says "no credential" explicitly, rather than leaving it unstated.
  @ApiOperation({ summary: 'Readiness: 200 while the database answers; the broker is reported, not required', security: [] })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Served on OPS_PORT instead (when it is set)' })
  @ApiServiceUnavailableResponse({ type: ErrorResponseDto, description: 'Database unreachable, or shutting down' })
  check(): HealthResponseDto {
    if (!this.served) throw new NotFoundException('Cannot GET /health');
    const readiness = this.health.readiness();
    if (readiness.status === 200) return readiness;
    throw readiness.draining ? new DrainingException() : new ServiceUnavailableException(readiness.error);
  }
}
