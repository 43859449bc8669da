import { Controller, Get, NotFoundException, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { PrometheusController } from '@willsoto/nestjs-prometheus';
import { FastifyReply } from 'fastify';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { AppConfig } from '../config/app-config';

/** Prometheus text of the default registry; not behind the admin key, switched off with METRICS_ENABLED=false. */
@ApiTags('operations')
@SkipThrottle()
@Controller()
export class MetricsController extends PrometheusController {
  private readonly enabled: boolean;

  constructor(config: ConfigService<AppConfig, true>) {
    super();
    this.enabled = config.get('metricsEnabled', { infer: true });
  }

  @Get()
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format)', security: [] })
  @ApiOkResponse({ description: 'Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Metrics are switched off (METRICS_ENABLED=false)' })
  override async index(@Res({ passthrough: true }) response: FastifyReply): Promise<string> {
    if (!this.enabled) throw new NotFoundException('Cannot GET /metrics');
    return super.index(response);
  }
}
