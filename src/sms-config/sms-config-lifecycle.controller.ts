import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { CurrentClient, Origin } from '../auth/auth.decorators';
import { AuthenticatedClient } from '../auth/client-lookup';
import { IdParam } from '../common/validation/positive-id.pipe';
import { ClientRoute } from '../routes/route.decorators';
import { CHANGE_BEYOND_LIMITS } from './sms-config-limit';
import {
  DeletedSmsConfigResponseDto,
  SmsConfigResponseDto,
  UpdateSmsConfigDto,
  UpdatedSmsConfigResponseDto,
} from './dto/sms-config-lifecycle.dto';
import { AddSmsConfigResponseDto } from './dto/sms-config-response.dto';
import { SmsConfigService } from './sms-config.service';

/** One configuration of the key's own client; any other id is answered 404, as if it did not exist. */
const OWN_SMS_CONFIG = {
  badRequest: 'smsConfigId is not a positive integer, or the body is invalid',
  forbidden: 'Client is disabled',
  notFound: 'No configuration of this client has this id',
};

@ApiTags('sms-config')
@Controller('api/v1/sms-configs')
export class SmsConfigLifecycleController {
  constructor(private readonly smsConfigs: SmsConfigService) {}

  @Get(':smsConfigId')
  @ClientRoute({ ...OWN_SMS_CONFIG, scope: 'client:read' })
  @ApiOperation({ summary: 'Get an SMS configuration', description: 'The fields of the list answer; never the password or apiKey.' })
  @ApiOkResponse({ type: SmsConfigResponseDto })
  async get(@CurrentClient() client: AuthenticatedClient, @IdParam('smsConfigId') smsConfigId: number) {
    return SmsConfigResponseDto.of(await this.smsConfigs.get(client, smsConfigId));
  }

  @Patch(':smsConfigId')
  @ClientRoute({ ...OWN_SMS_CONFIG, scope: 'sms-config:write', write: true, conflict: CHANGE_BEYOND_LIMITS })
  @ApiOperation({
    summary: 'Change an SMS configuration',
    description:
      'Any non-empty subset of the add fields except clientId; null clears an optional one. A new password or apiKey replaces ' +
      'the stored one (never returned). A change of smsApi, providerUrl, balanceUrl or username must send every stored ' +
      'credential again (password, and apiKey when one is stored), else 400 and nothing changes. A change of any of those ' +
      'six makes every earlier verifyApiKey stale. Answers the configuration and a fresh verifyApiKey.',
  })
  @ApiOkResponse({ type: UpdatedSmsConfigResponseDto })
  async update(
    @CurrentClient() client: AuthenticatedClient,
    @IdParam('smsConfigId') smsConfigId: number,
    @Body() request: UpdateSmsConfigDto,
    @Origin() origin: ChangeOrigin,
  ) {
    return UpdatedSmsConfigResponseDto.of(await this.smsConfigs.update(client, smsConfigId, request, origin));
  }

  @Delete(':smsConfigId')
  @ClientRoute({ ...OWN_SMS_CONFIG, scope: 'sms-config:write', write: true })
  @ApiOperation({ summary: 'Delete an SMS configuration' })
  @ApiOkResponse({ type: DeletedSmsConfigResponseDto })
  async delete(@CurrentClient() client: AuthenticatedClient, @IdParam('smsConfigId') smsConfigId: number, @Origin() origin: ChangeOrigin) {
    return DeletedSmsConfigResponseDto.of(await this.smsConfigs.delete(client, smsConfigId, origin));
  }

  @Post(':smsConfigId/verify-api-key')
  @HttpCode(HttpStatus.OK)
  @ClientRoute({ ...OWN_SMS_CONFIG, scope: 'sms-config:write', write: true })
  @ApiOperation({
    summary: 'Issue a fresh verifyApiKey',
    description:
      'A new token under the newest encryption key, for the configuration as stored, living as long as the secretKey that ' +
      'asked for it: after a rotation, ask again with the new key within the grace. The stored credentials do not change; ' +
      'older tokens keep working while their encryption key is configured, their secretKey authenticates and the ' +
      'credentials are unchanged.',
  })
  @ApiOkResponse({ type: AddSmsConfigResponseDto })
  async issueVerifyApiKey(@CurrentClient() client: AuthenticatedClient, @IdParam('smsConfigId') smsConfigId: number) {
    return AddSmsConfigResponseDto.of(await this.smsConfigs.issueVerifyApiKey(client, smsConfigId));
  }
}
