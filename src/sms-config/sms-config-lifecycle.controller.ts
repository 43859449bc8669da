import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { ClientAuthenticated, CurrentClient, Origin } from '../auth/auth.decorators';
import { AuthenticatedClient } from '../auth/client-lookup';
import { ApiCommonErrors } from '../common/errors/api-errors.decorator';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { PositiveIdPipe } from '../common/validation/positive-id.pipe';
import { ClientWrite } from '../rate-limit/write-limit';
import { MAX_DESTINATION_PRICES_PER_CLIENT, MAX_SMS_CONFIG_ANSWER_BYTES } from './sms-config-limit';
import {
  DeletedSmsConfigResponseDto,
  SmsConfigResponseDto,
  UpdateSmsConfigDto,
  UpdatedSmsConfigResponseDto,
} from './dto/sms-config-lifecycle.dto';
import { AddSmsConfigResponseDto } from './dto/sms-config-response.dto';
import { SmsConfigService } from './sms-config.service';

/** One configuration of the key's own client; any other id is answered 404, as if it did not exist. */
@ApiTags('sms-config')
@ApiCommonErrors()
@ClientAuthenticated()
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'smsConfigId is not a positive integer, or the body is invalid' })
@ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Client is disabled' })
@ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No configuration of this client has this id' })
@Controller('api/v1/sms-configs')
export class SmsConfigLifecycleController {
  constructor(private readonly smsConfigs: SmsConfigService) {}

  @Get(':smsConfigId')
  @ApiOperation({ summary: 'Get an SMS configuration', description: 'The fields of the list answer; never the password or apiKey.' })
  @ApiOkResponse({ type: SmsConfigResponseDto })
  async get(
    @CurrentClient() client: AuthenticatedClient,
    @Param('smsConfigId', PositiveIdPipe) smsConfigId: number,
  ): Promise<SmsConfigResponseDto> {
    return { status: 200, results: await this.smsConfigs.get(client, smsConfigId) };
  }

  @Patch(':smsConfigId')
  @ClientWrite()
  @ApiOperation({
    summary: 'Change an SMS configuration',
    description:
      'Any non-empty subset of the add fields except clientId; null clears an optional one. A new password or apiKey replaces ' +
      'the stored one (never returned). A change of smsApi, providerUrl, balanceUrl or username must send every stored ' +
      'credential again (password, and apiKey when one is stored), else 400 and nothing changes. A change of any of those ' +
      'six makes every earlier verifyApiKey stale. Answers the configuration and a fresh verifyApiKey.',
  })
  @ApiOkResponse({ type: UpdatedSmsConfigResponseDto })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description:
      `The client's configurations would take more than ${MAX_SMS_CONFIG_ANSWER_BYTES} bytes of get-client answer, or hold more ` +
      `than ${MAX_DESTINATION_PRICES_PER_CLIENT} destinationPrices entries in all`,
  })
  async update(
    @CurrentClient() client: AuthenticatedClient,
    @Param('smsConfigId', PositiveIdPipe) smsConfigId: number,
    @Body() request: UpdateSmsConfigDto,
    @Origin() origin: ChangeOrigin,
  ): Promise<UpdatedSmsConfigResponseDto> {
    return { status: 200, results: await this.smsConfigs.update(client, smsConfigId, request, origin) };
  }

  @Delete(':smsConfigId')
  @ClientWrite()
  @ApiOperation({ summary: 'Delete an SMS configuration' })
  @ApiOkResponse({ type: DeletedSmsConfigResponseDto })
  async delete(
    @CurrentClient() client: AuthenticatedClient,
    @Param('smsConfigId', PositiveIdPipe) smsConfigId: number,
    @Origin() origin: ChangeOrigin,
  ): Promise<DeletedSmsConfigResponseDto> {
    return { status: 200, results: await this.smsConfigs.delete(client, smsConfigId, origin) };
  }

  @Post(':smsConfigId/verify-api-key')
  @HttpCode(HttpStatus.OK)
  @ClientWrite()
  @ApiOperation({
    summary: 'Issue a fresh verifyApiKey',
    description:
      'A new token under the newest encryption key, for the configuration as stored, living as long as the secretKey that ' +
      'asked for it: after a rotation, ask again with the new key within the grace. The stored credentials do not change; ' +
      'older tokens keep working while their encryption key is configured, their secretKey authenticates and the ' +
      'credentials are unchanged.',
  })
  @ApiOkResponse({ type: AddSmsConfigResponseDto })
  async issueVerifyApiKey(
    @CurrentClient() client: AuthenticatedClient,
    @Param('smsConfigId', PositiveIdPipe) smsConfigId: number,
  ): Promise<AddSmsConfigResponseDto> {
    return { status: 200, results: await this.smsConfigs.issueVerifyApiKey(client, smsConfigId) };
  }
}
