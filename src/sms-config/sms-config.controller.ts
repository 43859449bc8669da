import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { ClientAuthenticated, CurrentClient, Origin } from '../auth/auth.decorators';
import { AuthenticatedClient } from '../auth/client-lookup';
import { ApiCommonErrors } from '../common/errors/api-errors.decorator';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { OptionalBody } from '../common/validation/optional-body.decorator';
import { Idempotent } from '../idempotency/idempotency.decorator';
import { IdempotentCall, IdempotencyOf } from '../idempotency/idempotent-call';
import { IdempotencyService, ReplayedAnswer } from '../idempotency/idempotency.service';
import { AddSmsConfigDto } from './dto/add-sms-config.dto';
import { ClientIdDto } from './dto/client-id.dto';
import { AddSmsConfigResponseDto, SmsConfigListResponseDto } from './dto/sms-config-response.dto';
import { ClientWrite } from '../rate-limit/write-limit';
import { MAX_DESTINATION_PRICES_PER_CLIENT, MAX_SMS_CONFIGS_PER_CLIENT, MAX_SMS_CONFIG_ANSWER_BYTES } from './sms-config-limit';
import { SmsConfigService } from './sms-config.service';

@ApiTags('sms-config')
@ApiCommonErrors()
@ClientAuthenticated()
@ApiForbiddenResponse({ type: ErrorResponseDto, description: "clientId is not the id of the secretKey's client" })
@Controller('api/sms-config')
export class SmsConfigController {
  constructor(
    private readonly smsConfigs: SmsConfigService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Post('add')
  @HttpCode(HttpStatus.OK)
  @ClientWrite()
  @ApiOperation({ summary: 'Add SMS configuration', description: 'Stores an SMS provider configuration for the client of the secretKey.' })
  @ApiOkResponse({ type: AddSmsConfigResponseDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'Invalid request; the message names the failing fields (10 at most, then how many more)',
  })
  @Idempotent(
    `The client already has ${MAX_SMS_CONFIGS_PER_CLIENT} SMS configurations, they would take more than ` +
      `${MAX_SMS_CONFIG_ANSWER_BYTES} bytes of get-client answer, or more than ${MAX_DESTINATION_PRICES_PER_CLIENT} destinationPrices entries in all`,
  )
  async add(
    @CurrentClient() client: AuthenticatedClient,
    @Body() request: AddSmsConfigDto,
    @Origin() origin: ChangeOrigin,
    @IdempotencyOf() call?: IdempotentCall,
  ): Promise<AddSmsConfigResponseDto | ReplayedAnswer> {
    return this.idempotency.once(call, async () => ({ status: 200, results: await this.smsConfigs.add(client, request, origin) }));
  }

  @Post('get-all-by-client-id')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Get SMS configurations by client',
    description: 'The SMS configurations of the client of the secretKey, ordered by smsConfigId. Body: none, {} or {"clientId": n}.',
  })
  @ApiOkResponse({ type: SmsConfigListResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid request' })
  async list(@CurrentClient() client: AuthenticatedClient, @OptionalBody() request: ClientIdDto): Promise<SmsConfigListResponseDto> {
    return { status: 200, results: await this.smsConfigs.listForClient(client.id, request.clientId) };
  }
}
