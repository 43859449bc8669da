import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../auth/auth.decorators';
import { ApiCommonErrors } from '../common/errors/api-errors.decorator';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { DEFAULT_PAGE_LIMIT, cursorPosition } from '../common/pagination/page';
import { AuditLog } from './audit.repository';
import { AuditEventPageResponseDto, AuditEventQueryDto, toAuditEvent } from './dto/audit-event.dto';

@ApiTags('audit')
@ApiCommonErrors()
@AdminOnly()
@Controller('api/v1/audit-events')
export class AuditController {
  constructor(private readonly auditLog: AuditLog) {}

  @Get()
  @ApiOperation({
    summary: 'List audit events',
    description: 'Every change and every credential resolution, newest first; filter by clientId and action.',
  })
  @ApiOkResponse({ type: AuditEventPageResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A query parameter that is not valid (limit, cursor, clientId, action)' })
  async list(@Query() query: AuditEventQueryDto): Promise<AuditEventPageResponseDto> {
    const page = await this.auditLog.list(
      { clientId: query.clientId, action: query.action },
      query.limit ?? DEFAULT_PAGE_LIMIT,
      cursorPosition(query.cursor),
    );
    return { status: 200, results: { items: page.items.map(toAuditEvent), nextCursor: page.nextCursor } };
  }
}
