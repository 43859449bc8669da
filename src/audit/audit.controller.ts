import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DEFAULT_PAGE_LIMIT, cursorPosition } from '../common/pagination/page';
import { AdminRoute } from '../routes/route.decorators';
import { AuditLog } from './audit.repository';
import { AuditEventPageResponseDto, AuditEventQueryDto, toAuditEvent } from './dto/audit-event.dto';

@ApiTags('audit')
@Controller('api/v1/audit-events')
export class AuditController {
  constructor(private readonly auditLog: AuditLog) {}

  @Get()
  @AdminRoute({ badRequest: 'A query parameter that is not valid (limit, cursor, clientId, action)' })
  @ApiOperation({
    summary: 'List audit events',
    description: 'Every change and every credential resolution, newest first; filter by clientId and action.',
  })
  @ApiOkResponse({ type: AuditEventPageResponseDto })
  async list(@Query() query: AuditEventQueryDto) {
    const page = await this.auditLog.list(
      { clientId: query.clientId, action: query.action },
      query.limit ?? DEFAULT_PAGE_LIMIT,
      cursorPosition(query.cursor),
    );
    return AuditEventPageResponseDto.of({ items: page.items.map(toAuditEvent), nextCursor: page.nextCursor });
  }
}
