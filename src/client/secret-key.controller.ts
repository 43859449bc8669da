import { Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { ClientAuthenticated, CurrentClient, Origin } from '../auth/auth.decorators';
import { AuthenticatedClient } from '../auth/client-lookup';
import { ApiCommonErrors } from '../common/errors/api-errors.decorator';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { OptionalBody } from '../common/validation/optional-body.decorator';
import { IdempotentHoldingSecretKey } from '../idempotency/idempotency.decorator';
import { IdempotentCall, IdempotencyOf } from '../idempotency/idempotent-call';
import { IdempotencyService, ReplayedAnswer } from '../idempotency/idempotency.service';
import { ClientWrite } from '../rate-limit/write-limit';
import { ClientAdminService } from './client-admin.service';
import { RotateSecretKeyDto, RotatedSecretKeyResponseDto } from './dto/secret-key-rotation.dto';

@ApiTags('clients')
@ApiCommonErrors()
@ClientAuthenticated()
@Controller('api/v1/client/secret-key')
export class SecretKeyController {
  constructor(
    private readonly clients: ClientAdminService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Post('rotate')
  @HttpCode(HttpStatus.OK)
  @ClientWrite()
  @IdempotentHoldingSecretKey()
  @ApiOperation({
    summary: 'Rotate my secret key',
    description:
      'The new key works at once; the previous one keeps working until previousKeyExpiresAt (graceSeconds, default 86400), then is unknown. ' +
      'Only the current key may rotate; rotating again ends the earlier previous key at once.',
  })
  @ApiOkResponse({ type: RotatedSecretKeyResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'graceSeconds is not an integer from 0 to 604800' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'The key presented is the previous one, or the client is disabled' })
  async rotate(
    @CurrentClient() client: AuthenticatedClient,
    @OptionalBody() request: RotateSecretKeyDto,
    @Origin() origin: ChangeOrigin,
    @IdempotencyOf() call?: IdempotentCall,
  ): Promise<RotatedSecretKeyResponseDto | ReplayedAnswer> {
    return this.idempotency.once(
      call,
      async () => ({
        status: 200,
        results: await this.clients.rotateOwnKey(client.id, client.secretKeyDigest, request.graceSeconds, origin),
      }),
      { replayed: () => this.clients.recordRotationReplay(client.id, origin) },
    );
  }
}
