import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { Origin } from '../auth/auth.decorators';
import { OptionalBody } from '../common/validation/optional-body.decorator';
import { IdParam } from '../common/validation/positive-id.pipe';
import { Idempotency, IdempotencyOf } from '../idempotency/idempotency-of.decorator';
import { AdminRoute } from '../routes/route.decorators';
import { ClientAdminService } from './client-admin.service';
import {
  AdminClientPageResponseDto,
  AdminClientResponseDto,
  ClientListQueryDto,
  DeletedClientResponseDto,
  UpdateClientDto,
} from './dto/admin-client.dto';
import { RotateSecretKeyDto, RotatedSecretKeyResponseDto } from './dto/secret-key-rotation.dto';

const NO_SUCH_CLIENT = 'No such client';

@ApiTags('client administration')
@Controller('api/v1/clients')
export class ClientAdminController {
  constructor(private readonly clients: ClientAdminService) {}

  @Get()
  @AdminRoute()
  @ApiOperation({ summary: 'List clients', description: 'A page of clients by clientId ascending; `appName` filters by prefix.' })
  @ApiOkResponse({ type: AdminClientPageResponseDto })
  async list(@Query() query: ClientListQueryDto) {
    return AdminClientPageResponseDto.of(await this.clients.list(query));
  }

  @Get(':clientId')
  @AdminRoute({ notFound: NO_SUCH_CLIENT })
  @ApiOperation({ summary: 'Get a client' })
  @ApiOkResponse({ type: AdminClientResponseDto })
  async get(@IdParam('clientId') clientId: number) {
    return AdminClientResponseDto.of(await this.clients.get(clientId));
  }

  @Patch(':clientId')
  @AdminRoute({ notFound: NO_SUCH_CLIENT })
  @ApiOperation({
    summary: 'Change a client',
    description: 'Any non-empty subset of the fields; null clears an optional one. isActive false disables the client, true enables it.',
  })
  @ApiOkResponse({ type: AdminClientResponseDto })
  async update(@IdParam('clientId') clientId: number, @Body() request: UpdateClientDto, @Origin() origin: ChangeOrigin) {
    return AdminClientResponseDto.of(await this.clients.update(clientId, request, origin));
  }

  @Delete(':clientId')
  @AdminRoute({ notFound: NO_SUCH_CLIENT })
  @ApiOperation({ summary: 'Delete a client', description: 'With its SMS configurations; its keys are unknown everywhere within 1 s.' })
  @ApiOkResponse({ type: DeletedClientResponseDto })
  async delete(@IdParam('clientId') clientId: number, @Origin() origin: ChangeOrigin) {
    return DeletedClientResponseDto.of(await this.clients.delete(clientId, origin));
  }

  @Post(':clientId/secret-key/rotate')
  @HttpCode(HttpStatus.OK)
  @AdminRoute({ idempotent: 'holding a secret key', notFound: NO_SUCH_CLIENT })
  @ApiOperation({
    summary: "Rotate a client's secret key",
    description: 'For a leaked key: the new key works at once; send graceSeconds 0 to revoke the old one at once.',
  })
  @ApiOkResponse({ type: RotatedSecretKeyResponseDto })
  rotate(
    @IdParam('clientId') clientId: number,
    @OptionalBody() request: RotateSecretKeyDto,
    @Origin() origin: ChangeOrigin,
    @IdempotencyOf() idempotency: Idempotency,
  ) {
    return this.clients.rotateOnce(idempotency, clientId, origin, () => this.clients.rotateAsAdmin(clientId, request, origin));
  }
}
