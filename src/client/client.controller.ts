import { Body, Controller, Header, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { AdminOnly, ClientKeyLookup, Origin, PresentedSecretKey } from '../auth/auth.decorators';
import { UnknownSecretKeyException } from '../auth/credential-refusals';
import { ApiCommonErrors } from '../common/errors/api-errors.decorator';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { EmptyBodyDto } from '../common/validation/empty-body.dto';
import { OptionalBody } from '../common/validation/optional-body.decorator';
import { IdempotentHoldingSecretKey } from '../idempotency/idempotency.decorator';
import { IdempotentCall, IdempotencyOf } from '../idempotency/idempotent-call';
import { IdempotencyService, ReplayedAnswer } from '../idempotency/idempotency.service';
import { ClientService } from './client.service';
import { AddClientDto } from './dto/add-client.dto';
import { ClientResponseDto } from './dto/client-response.dto';

@ApiTags('clients')
@ApiCommonErrors()
@Controller('api/client')
export class ClientController {
  constructor(
    private readonly clients: ClientService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Post('add')
  @HttpCode(HttpStatus.OK)
  @AdminOnly()
  @IdempotentHoldingSecretKey()
  @ApiOperation({ summary: 'Add client', description: 'Registers a client application and issues its secret key.' })
  @ApiOkResponse({ type: ClientResponseDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'Invalid request; the message names the failing fields (10 at most, then how many more)',
  })
  async add(
    @Body() request: AddClientDto,
    @Origin() origin: ChangeOrigin,
    @IdempotencyOf() call?: IdempotentCall,
  ): Promise<ClientResponseDto | ReplayedAnswer> {
    return this.idempotency.once(call, async () => ({ status: 200, results: await this.clients.create(request, origin) }), {
      replayed: (answer) => this.clients.recordAddReplay(answer, origin),
    });
  }

  /** Answered here only for what the edge leaves (get-client-at-edge.ts): unknown keys, disabled clients, bodies with fields. */
  @Post('get/secretKey')
  @HttpCode(HttpStatus.OK)
  @ClientKeyLookup()
  // The answer comes serialized from the cache (see ClientService.getAnswer), so it is sent as it is.
  @Header('content-type', 'application/json; charset=utf-8')
  @ApiOperation({ summary: 'Get client by secret key', description: 'The client owning the key, with its SMS configurations.' })
  @ApiOkResponse({ type: ClientResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A body other than none or {}' })
  async getBySecretKey(@PresentedSecretKey() secretKey: string, @OptionalBody() _body: EmptyBodyDto): Promise<string> {
    const answer = await this.clients.getAnswer(secretKey);
    // The guard found the client; null only if it went in between.
    if (answer === null) throw new UnknownSecretKeyException();
    return answer;
  }
}
