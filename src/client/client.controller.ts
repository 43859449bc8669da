import { Body, Controller, Header, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { Origin, PresentedSecretKey } from '../auth/auth.decorators';
import { UnknownSecretKeyException } from '../auth/credential-refusals';
import { EmptyBodyDto } from '../common/validation/empty-body.dto';
import { OptionalBody } from '../common/validation/optional-body.decorator';
import { Idempotency, IdempotencyOf } from '../idempotency/idempotency-of.decorator';
import { AdminRoute, ClientRoute, FIELDS_REFUSED } from '../routes/route.decorators';
import { ClientAdminService } from './client-admin.service';
import { ClientService } from './client.service';
import { AddClientDto } from './dto/add-client.dto';
import { ClientResponseDto } from './dto/client-response.dto';

@ApiTags('clients')
@Controller('api/client')
export class ClientController {
  constructor(
    private readonly clients: ClientService,
    private readonly admin: ClientAdminService,
  ) {}

  @Post('add')
  @HttpCode(HttpStatus.OK)
  @AdminRoute({ idempotent: 'holding a secret key', badRequest: FIELDS_REFUSED })
  @ApiOperation({ summary: 'Add client', description: 'Registers a client application and issues its secret key.' })
  @ApiOkResponse({ type: ClientResponseDto })
  add(@Body() request: AddClientDto, @Origin() origin: ChangeOrigin, @IdempotencyOf() idempotency: Idempotency) {
    return idempotency.once(async () => ClientResponseDto.of(await this.admin.add(request, origin)), {
      replayed: (answer) => this.admin.recordAddReplay(answer, origin),
    });
  }

  /** Answered here only for what the edge leaves (get-client-at-edge.ts): unknown keys, disabled clients, bodies with fields. */
  @Post('get/secretKey')
  @HttpCode(HttpStatus.OK)
  @ClientRoute({ scope: 'client:read', keyLookup: true, badRequest: 'A body other than none or {}' })
  // The answer comes serialized from the cache (see ClientService.getAnswer), so it is sent as it is.
  @Header('content-type', 'application/json; charset=utf-8')
  @ApiOperation({ summary: 'Get client by secret key', description: 'The client owning the key, with its SMS configurations.' })
  @ApiOkResponse({ type: ClientResponseDto })
  async getBySecretKey(@PresentedSecretKey() secretKey: string, @OptionalBody() _body: EmptyBodyDto): Promise<string> {
    const answer = await this.clients.getAnswer(secretKey);
    // The guard found the client; null only if it went in between.
    if (answer === null) throw new UnknownSecretKeyException();
    return answer;
  }
}
