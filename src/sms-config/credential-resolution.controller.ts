import { Body, Controller, Header, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { Origin } from '../auth/auth.decorators';
import { DispatcherRoute } from '../routes/route.decorators';
import { ResolveCredentialsDto, ResolvedSmsConfigResponseDto } from './dto/sms-config-lifecycle.dto';
import { SmsConfigService } from './sms-config.service';

@ApiTags('sms-config')
@Controller('api/v1/sms-configs')
export class CredentialResolutionController {
  constructor(private readonly smsConfigs: SmsConfigService) {}

  @Post('resolve')
  @HttpCode(HttpStatus.OK)
  @DispatcherRoute({
    badRequest: 'verifyApiKey is not valid (garbled, forged, altered, spelled otherwise than issued, or sealed under a removed key)',
    forbidden: "An admin key, or the configuration's client is disabled",
    notFound: 'The configuration was deleted',
    conflict:
      '`verifyApiKey is stale`: smsApi, providerUrl, balanceUrl, username, password or apiKey changed since it was issued. ' +
      '`verifyApiKey was issued under a secret key that is no longer valid`: the key that obtained it was rotated out ' +
      '(its grace ended) or revoked. `SMS configuration is inactive`: isActive is false.',
  })
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary: 'Resolve provider credentials',
    description:
      'For the SMS dispatcher only: the configuration a verifyApiKey names, with its password and apiKey. Every resolution is audited.',
  })
  @ApiOkResponse({ type: ResolvedSmsConfigResponseDto, headers: { 'cache-control': { schema: { type: 'string', example: 'no-store' } } } })
  async resolve(@Body() request: ResolveCredentialsDto, @Origin() origin: ChangeOrigin) {
    return ResolvedSmsConfigResponseDto.of(await this.smsConfigs.resolve(request.verifyApiKey, origin));
  }
}
