import { Controller, Get, NotFoundException, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { FastifyReply } from 'fastify';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { AppConfig } from '../config/app-config';
import { MetricsRenderer } from './metrics-renderer';

@ApiTags('operations')
@SkipThrottle()
@Controller('metrics')
export class MetricsController {
  private readonly served: boolean;

  constructor(
    config: ConfigService<AppConfig, true>,
    private readonly renderer: MetricsRenderer,
  ) {
    this.served = config.get('metricsEnabled', { infer: true }) && config.get('opsPort', { infer: true }) === undefined;
  }

  @Get()
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format)', security: [] })
  @ApiOkResponse({ description: 'Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Metrics are switched off (METRICS_ENABLED=false) or served on OPS_PORT' })
  async index(@Res({ passthrough: true }) response: FastifyReply): Promise<string> {
    if (!this.served) throw new NotFoundException('Cannot GET /metrics');
    const text = await this.renderer.render();
    void response.header('content-type', this.renderer.contentType);
    return text;
  }
}
