import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { AdminOnly, Origin } from '../auth/auth.decorators';
import { ApiCommonErrors } from '../common/errors/api-errors.decorator';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { OptionalBody } from '../common/validation/optional-body.decorator';
import { PositiveIdPipe } from '../common/validation/positive-id.pipe';
import { IdempotentHoldingSecretKey } from '../idempotency/idempotency.decorator';
import { IdempotentCall, IdempotencyOf } from '../idempotency/idempotent-call';
import { IdempotencyService, ReplayedAnswer } from '../idempotency/idempotency.service';
import { ClientAdminService } from './client-admin.service';
import {
  AdminClientPageResponseDto,
  AdminClientResponseDto,
  ClientListQueryDto,
  DeletedClientResponseDto,
  UpdateClientDto,
} from './dto/admin-client.dto';
import { RotateSecretKeyDto, RotatedSecretKeyResponseDto } from './dto/secret-key-rotation.dto';

@ApiTags('client administration')
@ApiCommonErrors()
@AdminOnly()
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid path id, query or body; the message names the problem' })
@Controller('api/v1/clients')
export class ClientAdminController {
  constructor(
    private readonly clients: ClientAdminService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List clients', description: 'A page of clients by clientId ascending; `appName` filters by prefix.' })
  @ApiOkResponse({ type: AdminClientPageResponseDto })
  async list(@Query() query: ClientListQueryDto): Promise<AdminClientPageResponseDto> {
    return { status: 200, results: await this.clients.list(query) };
  }

  @Get(':clientId')
  @ApiOperation({ summary: 'Get a client' })
  @ApiOkResponse({ type: AdminClientResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such client' })
  async get(@Param('clientId', PositiveIdPipe) clientId: number): Promise<AdminClientResponseDto> {
    return { status: 200, results: await this.clients.get(clientId) };
  }

  @Patch(':clientId')
  @ApiOperation({
    summary: 'Change a client',
    description: 'Any non-empty subset of the fields; null clears an optional one. isActive false disables the client, true enables it.',
  })
  @ApiOkResponse({ type: AdminClientResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such client' })
  async update(
    @Param('clientId', PositiveIdPipe) clientId: number,
    @Body() request: UpdateClientDto,
    @Origin() origin: ChangeOrigin,
  ): Promise<AdminClientResponseDto> {
    return { status: 200, results: await this.clients.update(clientId, request, origin) };
  }

  @Delete(':clientId')
  @ApiOperation({ summary: 'Delete a client', description: 'With its SMS configurations; its keys are unknown everywhere within 1 s.' })
  @ApiOkResponse({ type: DeletedClientResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such client' })
  async delete(@Param('clientId', PositiveIdPipe) clientId: number, @Origin() origin: ChangeOrigin): Promise<DeletedClientResponseDto> {
    return { status: 200, results: await this.clients.delete(clientId, origin) };
  }

  @Post(':clientId/secret-key/rotate')
  @HttpCode(HttpStatus.OK)
  @IdempotentHoldingSecretKey()
  @ApiOperation({
    summary: "Rotate a client's secret key",
    description: 'For a leaked key: the new key works at once; send graceSeconds 0 to revoke the old one at once.',
  })
  @ApiOkResponse({ type: RotatedSecretKeyResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such client' })
  async rotate(
    @Param('clientId', PositiveIdPipe) clientId: number,
    @OptionalBody() request: RotateSecretKeyDto,
    @Origin() origin: ChangeOrigin,
    @IdempotencyOf() call?: IdempotentCall,
  ): Promise<RotatedSecretKeyResponseDto | ReplayedAnswer> {
    return this.idempotency.once(
      call,
      async () => ({
        status: 200,
        results: await this.clients.rotateAsAdmin(clientId, request.graceSeconds, origin),
      }),
      { replayed: () => this.clients.recordRotationReplay(clientId, origin) },
    );
  }
}
