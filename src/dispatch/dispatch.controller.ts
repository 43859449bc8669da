import { Body, Controller, Header, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { CurrentClient, Origin } from '../auth/auth.decorators';
import { AuthenticatedClient } from '../auth/client-lookup';
import { OptionalBody } from '../common/validation/optional-body.decorator';
import { Idempotency, IdempotencyOf } from '../idempotency/idempotency-of.decorator';
import { DispatcherRoute } from '../routes/route.decorators';
import { DispatchService } from './dispatch.service';
import { OutcomeReportDto, OutcomeResponseDto } from './dto/dispatch-outcome.dto';
import { RouteRequestDto, RouteResponseDto } from './dto/dispatch-route.dto';

@ApiTags('dispatch')
@Controller('api/v1/dispatch')
export class DispatchController {
  constructor(private readonly dispatch: DispatchService) {}

  @Post('route')
  @HttpCode(HttpStatus.OK)
  @DispatcherRoute({
    forClient: true,
    badRequest:
      'smsType, count or destination is not valid (destination must be a possible E.164 number: a known calling code, a length ' +
      'possible for its country, in its E.164 spelling), the body has other fields, or no destination was given for a client with ' +
      'allowedDestinations or with pumpingGuard block (destination is required for this client)',
    forbidden:
      "An admin key as x-api-key, the secretKey's client is disabled, the destination is outside the client's " +
      'allowedDestinations (destination +<digits> is not allowed for this client), is a premium-rate or shared-cost number ' +
      'and the client does not allow them, or is in a range blocked for suspected SMS pumping (client in block)',
  })
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary: 'Which SMS configurations to send through now',
    description:
      "For the SMS dispatcher, with the client's secretKey: the client's usable configurations in the order to try them, " +
      'each with a fresh verifyApiKey to resolve for the one used, and every other configuration with the reason it is skipped. ' +
      'With a destination, each configuration is priced for it (destinationPrices, longest prefix first, else perSmsCost). ' +
      'Read from the database at every call: a report or a change on any instance shows at once. Never a secret.',
  })
  @ApiOkResponse({ type: RouteResponseDto, headers: { 'cache-control': { schema: { type: 'string', example: 'no-store' } } } })
  async route(@CurrentClient() client: AuthenticatedClient, @OptionalBody() request: RouteRequestDto) {
    return RouteResponseDto.of(await this.dispatch.route(client, request));
  }

  @Post('outcomes')
  @HttpCode(HttpStatus.OK)
  @DispatcherRoute({
    task: 'dispatch',
    idempotent: true,
    conflict: 'The debit would take the balance below -10^12',
    badRequest: 'A field is not valid, codesSent is more than sent, or the report gives no count >= 1 and no balance',
    forbidden: 'An admin key as x-api-key',
    notFound: 'No configuration has this smsConfigId',
  })
  @ApiOperation({
    summary: 'Report what sending through a configuration did',
    description:
      'For the SMS dispatcher: messages sent and failed through one configuration since the last report (a batch); a report ' +
      'must give one count >= 1 (sent, failed, delivered, undelivered, codesSent or verified) or balance. The ' +
      "balance goes down by exactly perSmsCost × sent (the price at destination when one is given), or is set to the provider's own figure when balance is given; a " +
      'send makes the configuration healthy, and 5 failures in a row make it unhealthy for DISPATCH_UNHEALTHY_MS. ' +
      'Crossings publish sms-config.balance-low, sms-config.unhealthy and sms-config.healthy, once each, and a balance ' +
      'given publishes sms-config.balance-set. Send an ' +
      'Idempotency-Key with each batch: a retry of it is answered again and counted once. ' +
      'With destination, the receipts (delivered, undelivered) count toward the deliveryRate route shows and orders by, and sent, ' +
      "codesSent and verified toward the client's pumping guard per destination range (client.pumping-suspected, client.pumping-blocked); " +
      'they move no balance, health or daily sum. Without destination, only metrics count them.',
  })
  @ApiOkResponse({ type: OutcomeResponseDto })
  report(@Body() report: OutcomeReportDto, @Origin() origin: ChangeOrigin, @IdempotencyOf() idempotency: Idempotency) {
    // Taken in a batch with the reports on its configuration that arrive with it, its answer kept in the batch's transaction.
    return idempotency.keptBy(async (keep) =>
      OutcomeResponseDto.of(await this.dispatch.report(report, origin, keep && ((results) => keep(OutcomeResponseDto.of(results))))),
    );
  }
}
