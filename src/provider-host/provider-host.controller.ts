import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { Origin } from '../auth/auth.decorators';
import { PageQueryDto } from '../common/pagination/page';
import { IdParam } from '../common/validation/positive-id.pipe';
import { AdminRoute } from '../routes/route.decorators';
import {
  ApproveProviderHostDto,
  DeletedProviderHostResponseDto,
  ProviderHostPageResponseDto,
  ProviderHostResponseDto,
} from './dto/provider-host.dto';
import { ProviderHostService } from './provider-host.service';

@ApiTags('provider hosts')
@Controller('api/v1/provider-hosts')
export class ProviderHostController {
  constructor(private readonly providerHosts: ProviderHostService) {}

  @Get()
  @AdminRoute()
  @ApiOperation({ summary: 'List approved provider hosts', description: 'A page of hosts by providerHostId ascending.' })
  @ApiOkResponse({ type: ProviderHostPageResponseDto })
  async list(@Query() query: PageQueryDto) {
    return ProviderHostPageResponseDto.of(await this.providerHosts.list(query));
  }

  @Post()
  @HttpCode(HttpStatus.OK)
  @AdminRoute({ conflict: 'The host is already approved (in any spelling)' })
  @ApiOperation({
    summary: 'Approve a provider host',
    description:
      'Route offers, and resolve answers, only configurations whose smsApi, providerUrl and balanceUrl hosts are approved; ' +
      'the change applies on every instance within 1 s.',
  })
  @ApiOkResponse({ type: ProviderHostResponseDto })
  async approve(@Body() request: ApproveProviderHostDto, @Origin() origin: ChangeOrigin) {
    return ProviderHostResponseDto.of(await this.providerHosts.approve(request, origin));
  }

  @Delete(':providerHostId')
  @AdminRoute({ notFound: 'No such provider host' })
  @ApiOperation({ summary: 'Remove an approved provider host', description: 'Configurations sending there are skipped within 1 s.' })
  @ApiOkResponse({ type: DeletedProviderHostResponseDto })
  async remove(@IdParam('providerHostId') providerHostId: number, @Origin() origin: ChangeOrigin) {
    return DeletedProviderHostResponseDto.of(await this.providerHosts.remove(providerHostId, origin));
  }
}
