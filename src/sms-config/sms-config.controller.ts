import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { CurrentClient, Origin } from '../auth/auth.decorators';
import { AuthenticatedClient } from '../auth/client-lookup';
import { OptionalBody } from '../common/validation/optional-body.decorator';
import { Idempotency, IdempotencyOf } from '../idempotency/idempotency-of.decorator';
import { ClientRoute, FIELDS_REFUSED } from '../routes/route.decorators';
import { AddSmsConfigDto } from './dto/add-sms-config.dto';
import { ClientIdDto } from './dto/client-id.dto';
import { AddSmsConfigResponseDto, SmsConfigListResponseDto } from './dto/sms-config-response.dto';
import { ADD_BEYOND_LIMITS } from './sms-config-limit';
import { SmsConfigService } from './sms-config.service';

const NOT_OWN_CLIENT_ID = "clientId is not the id of the secretKey's client";

@ApiTags('sms-config')
@Controller('api/sms-config')
export class SmsConfigController {
  constructor(private readonly smsConfigs: SmsConfigService) {}

  @Post('add')
  @HttpCode(HttpStatus.OK)
  @ClientRoute({
    scope: 'sms-config:write',
    write: true,
    idempotent: true,
    conflict: ADD_BEYOND_LIMITS,
    badRequest: FIELDS_REFUSED,
    forbidden: NOT_OWN_CLIENT_ID,
  })
  @ApiOperation({ summary: 'Add SMS configuration', description: 'Stores an SMS provider configuration for the client of the secretKey.' })
  @ApiOkResponse({ type: AddSmsConfigResponseDto })
  add(
    @CurrentClient() client: AuthenticatedClient,
    @Body() request: AddSmsConfigDto,
    @Origin() origin: ChangeOrigin,
    @IdempotencyOf() idempotency: Idempotency,
  ) {
    return idempotency.once(async () => AddSmsConfigResponseDto.of(await this.smsConfigs.add(client, request, origin)));
  }

  @Post('get-all-by-client-id')
  @HttpCode(HttpStatus.OK)
  @ClientRoute({ scope: 'client:read', badRequest: 'Invalid request', forbidden: NOT_OWN_CLIENT_ID })
  @ApiOperation({
    summary: 'Get SMS configurations by client',
    description: 'The SMS configurations of the client of the secretKey, ordered by smsConfigId. Body: none, {} or {"clientId": n}.',
  })
  @ApiOkResponse({ type: SmsConfigListResponseDto })
  async list(@CurrentClient() client: AuthenticatedClient, @OptionalBody() request: ClientIdDto) {
    return SmsConfigListResponseDto.of(await this.smsConfigs.listForClient(client.id, request.clientId));
  }
}
