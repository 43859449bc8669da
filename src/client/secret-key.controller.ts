import { Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { CurrentClient, Origin } from '../auth/auth.decorators';
import { AuthenticatedClient } from '../auth/client-lookup';
import { OptionalBody } from '../common/validation/optional-body.decorator';
import { Idempotency, IdempotencyOf } from '../idempotency/idempotency-of.decorator';
import { ClientRoute } from '../routes/route.decorators';
import { ClientAdminService } from './client-admin.service';
import { RotateSecretKeyDto, RotatedSecretKeyResponseDto } from './dto/secret-key-rotation.dto';

@ApiTags('clients')
@Controller('api/v1/client/secret-key')
export class SecretKeyController {
  constructor(private readonly clients: ClientAdminService) {}

  @Post('rotate')
  @HttpCode(HttpStatus.OK)
  @ClientRoute({
    scope: 'root',
    retriedByPreviousKey: true,
    write: true,
    idempotent: 'holding a secret key',
    badRequest: 'graceSeconds is not an integer from 0 to 604800, or deleteScopedKeys is not a boolean',
    forbidden: 'The client is disabled',
  })
  @ApiOperation({
    summary: 'Rotate my secret key',
    description:
      'The new key works at once; the previous one keeps working until previousKeyExpiresAt (graceSeconds, default 86400), then is unknown. ' +
      'Only the current key may rotate; rotating again ends the earlier previous key at once.',
  })
  @ApiOkResponse({ type: RotatedSecretKeyResponseDto })
  rotate(
    @CurrentClient() client: AuthenticatedClient,
    @OptionalBody() request: RotateSecretKeyDto,
    @Origin() origin: ChangeOrigin,
    @IdempotencyOf() idempotency: Idempotency,
  ) {
    const rotation = () => this.clients.rotateOwnKey(client.id, client.secretKeyDigest, request, origin);
    return this.clients.rotateOnce(idempotency, client.id, origin, rotation);
  }
}
