import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin, clientActor } from '../../auth/actor';
import { CurrentClient, Origin } from '../../auth/auth.decorators';
import { AuthenticatedClient } from '../../auth/client-lookup';
import { IdParam } from '../../common/validation/positive-id.pipe';
import { Idempotency, IdempotencyOf } from '../../idempotency/idempotency-of.decorator';
import { WriteRateLimit } from '../../rate-limit/write-limit';
import { AdminRoute, ClientRoute, FIELDS_REFUSED } from '../../routes/route.decorators';
import { ClientKeyService } from './client-key.service';
import {
  ClientKeyListQueryDto,
  ClientKeyPageResponseDto,
  CreateClientKeyDto,
  CreatedClientKeyResponseDto,
  DeletedClientKeyResponseDto,
  TOO_MANY_SCOPED_KEYS,
} from './dto/client-key.dto';

const CREATE = {
  summary: 'Make a scoped key',
  description:
    'A key (rk_…) that does only what its scopes say, until expiresAt, from allowedSources: the answer is the only place it is ' +
    'ever shown. It works on every instance at once. A scoped key never changes: make another and delete the old one.',
};
const LIST = { summary: 'List scoped keys', description: 'Never a key or its digest: keyStart tells them apart.' };
const DELETE = { summary: 'Delete a scoped key', description: 'Unknown on every instance within 1 s.' };
const NO_SUCH_KEY = 'No such scoped key of this client';
const NO_SUCH_CLIENT_OR_KEY = 'No such client, or no such scoped key of it';

@ApiTags('clients')
@Controller('api/v1/client/keys')
export class ClientKeyController {
  constructor(private readonly keys: ClientKeyService) {}

  @Post()
  @HttpCode(HttpStatus.OK)
  @ClientRoute({
    scope: 'root',
    write: true,
    idempotent: 'holding a secret key',
    badRequest: FIELDS_REFUSED,
    conflict: TOO_MANY_SCOPED_KEYS,
  })
  @ApiOperation(CREATE)
  @ApiOkResponse({ type: CreatedClientKeyResponseDto })
  create(
    @CurrentClient() client: AuthenticatedClient,
    @Body() request: CreateClientKeyDto,
    @Origin() origin: ChangeOrigin,
    @IdempotencyOf() idempotency: Idempotency,
  ) {
    return this.keys.createOnce(idempotency, client.id, origin, () => this.keys.create(client.id, request, origin));
  }

  @Get()
  @ClientRoute({ scope: 'root' })
  @ApiOperation(LIST)
  @ApiOkResponse({ type: ClientKeyPageResponseDto })
  async list(@CurrentClient() client: AuthenticatedClient, @Query() query: ClientKeyListQueryDto) {
    return ClientKeyPageResponseDto.of(await this.keys.list(client.id, query));
  }

  @Delete(':keyId')
  @ClientRoute({ scope: 'root', write: true, notFound: NO_SUCH_KEY })
  @ApiOperation(DELETE)
  @ApiOkResponse({ type: DeletedClientKeyResponseDto })
  async delete(@CurrentClient() client: AuthenticatedClient, @IdParam('keyId') keyId: number, @Origin() origin: ChangeOrigin) {
    return DeletedClientKeyResponseDto.of(await this.keys.delete(client.id, keyId, origin));
  }
}

// The admin's keys of a client are writes under the client's own write limit, as its root key's are.
@ApiTags('client administration')
@Controller('api/v1/clients/:clientId/keys')
export class ClientKeyAdminController {
  constructor(
    private readonly keys: ClientKeyService,
    private readonly writes: WriteRateLimit,
  ) {}

  @Post()
  @HttpCode(HttpStatus.OK)
  @AdminRoute({
    idempotent: 'holding a secret key',
    badRequest: FIELDS_REFUSED,
    notFound: 'No such client',
    conflict: TOO_MANY_SCOPED_KEYS,
  })
  @ApiOperation({ ...CREATE, summary: "Make a client's scoped key" })
  @ApiOkResponse({ type: CreatedClientKeyResponseDto })
  create(
    @IdParam('clientId') clientId: number,
    @Body() request: CreateClientKeyDto,
    @Origin() origin: ChangeOrigin,
    @IdempotencyOf() idempotency: Idempotency,
  ) {
    return this.keys.createOnce(idempotency, clientId, origin, () => {
      this.writes.count(clientActor(clientId));
      return this.keys.create(clientId, request, origin);
    });
  }

  @Get()
  @AdminRoute({ notFound: 'No such client' })
  @ApiOperation({ ...LIST, summary: "List a client's scoped keys" })
  @ApiOkResponse({ type: ClientKeyPageResponseDto })
  async list(@IdParam('clientId') clientId: number, @Query() query: ClientKeyListQueryDto) {
    return ClientKeyPageResponseDto.of(await this.keys.list(clientId, query));
  }

  @Delete(':keyId')
  @AdminRoute({ notFound: NO_SUCH_CLIENT_OR_KEY })
  @ApiOperation({ ...DELETE, summary: "Delete a client's scoped key" })
  @ApiOkResponse({ type: DeletedClientKeyResponseDto })
  async delete(@IdParam('clientId') clientId: number, @IdParam('keyId') keyId: number, @Origin() origin: ChangeOrigin) {
    this.writes.count(clientActor(clientId));
    return DeletedClientKeyResponseDto.of(await this.keys.delete(clientId, keyId, origin));
  }
}
