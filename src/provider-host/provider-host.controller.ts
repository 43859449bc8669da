import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { AdminOnly, Origin } from '../auth/auth.decorators';
import { ApiCommonErrors } from '../common/errors/api-errors.decorator';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { PageQueryDto } from '../common/pagination/page';
import { PositiveIdPipe } from '../common/validation/positive-id.pipe';
import {
  ApproveProviderHostDto,
  DeletedProviderHostResponseDto,
  ProviderHostPageResponseDto,
  ProviderHostResponseDto,
} from './dto/provider-host.dto';
import { ProviderHostService } from './provider-host.service';

@ApiTags('provider hosts')
@ApiCommonErrors()
@AdminOnly()
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid path id, query or body; the message names the problem' })
@Controller('api/v1/provider-hosts')
export class ProviderHostController {
  constructor(private readonly providerHosts: ProviderHostService) {}

  @Get()
  @ApiOperation({ summary: 'List approved provider hosts', description: 'A page of hosts by providerHostId ascending.' })
  @ApiOkResponse({ type: ProviderHostPageResponseDto })
  async list(@Query() query: PageQueryDto): Promise<ProviderHostPageResponseDto> {
    return { status: 200, results: await this.providerHosts.list(query) };
  }

  @Post()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Approve a provider host',
    description:
      'Route offers, and resolve answers, only configurations whose smsApi, providerUrl and balanceUrl hosts are approved; ' +
      'the change applies on every instance within 1 s.',
  })
  @ApiOkResponse({ type: ProviderHostResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The host is already approved (in any spelling)' })
  async approve(@Body() request: ApproveProviderHostDto, @Origin() origin: ChangeOrigin): Promise<ProviderHostResponseDto> {
    return { status: 200, results: await this.providerHosts.approve(request, origin) };
  }

  @Delete(':providerHostId')
  @ApiOperation({ summary: 'Remove an approved provider host', description: 'Configurations sending there are skipped within 1 s.' })
  @ApiOkResponse({ type: DeletedProviderHostResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such provider host' })
  async remove(
    @Param('providerHostId', PositiveIdPipe) providerHostId: number,
    @Origin() origin: ChangeOrigin,
  ): Promise<DeletedProviderHostResponseDto> {
    return { status: 200, results: await this.providerHosts.remove(providerHostId, origin) };
  }
}
