import { BadRequestException, ConflictException, ForbiddenException, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuditLog } from '../audit/audit.repository';
import { ChangeOrigin } from '../auth/actor';
import { inFieldOrder } from '../common/answer-fields';
import { AuthenticatedClient } from '../auth/client-lookup';
import { MAX_AMOUNT_EXCLUSIVE } from '../common/validation/decorators';
import { Clock, utcDayOf } from '../common/clock';
import { AppConfig, DeliverySignalsConfig } from '../config/app-config';
import { retryDeadlockVictims } from '../database/deadlock-retry';
import { amountOf, microsOf } from '../database/exact-decimal';
import { Transactions } from '../database/transactions';
import { IdempotentRequestInProgressException, KeepAnswer } from '../idempotency/idempotency.service';
import { ProviderHostApproval } from '../provider-host/provider-host-approval';
import { SmsConfigNotFoundException } from '../sms-config/sms-config.service';
import { VerifyApiKeyIssuer } from '../sms-config/verify-api-key-issuer';
import { DestinationPriceRepository } from '../sms-config/destination-price.repository';
import { isAllowedDestination, longestPrefixPrices, prefixesOf, pricedAt } from './destination-pricing';
import { route } from './dispatch-routing';
import { DailyLimit, DailyUsage, usageAfterReport, usageOn } from './daily-usage';
import { countDailyLimitReached, countReport, countReportDestination, countRouteRefusal, countRouteSkips } from './dispatch.metrics';
import { DispatchRepository, ReportedSmsConfig } from './dispatch.repository';
import { Routable, RouteRepository } from './route.repository';
import { ReportBatches } from './report-batches';
import { DeliverySignals, SignalReport } from '../delivery-signals/delivery-signals';
import { countDemotions } from '../delivery-signals/delivery-signals.metrics';
import { deliveryRateOf, isDemoted } from '../delivery-signals/delivery-rate';
import { DestinationNumber, IMPOSSIBLE_DESTINATION, readDestination, routedDestination } from '../delivery-signals/destination-number';
import { firstMinuteOf } from '../delivery-signals/signal-windows';
import { OutcomeDto, OutcomeReportDto } from './dto/dispatch-outcome.dto';
import { ROUTE_CANDIDATE_FIELDS, ROUTE_CANDIDATE_FIELDS_WITHOUT_DESTINATION, RouteDto, RouteRequestDto } from './dto/dispatch-route.dto';
import { healthAfterReport } from './provider-health';

const NO_DAILY_LIMITS = { dailySpendLimitMicros: null, dailySmsLimit: null, spentMicros: 0n, sent: 0 };

// A debit may take a balance below zero, but not below what DECIMAL(18,6) holds.
const LOWEST_BALANCE_MICROS = -(BigInt(MAX_AMOUNT_EXCLUSIVE) * 1_000_000n - 1n);

interface TakenReport {
  report: OutcomeReportDto;
  // Its destination read once, or null: none given, or no possible number (counted as without destination).
  number: DestinationNumber | null;
  origin: ChangeOrigin;
  keep?: KeepAnswer<OutcomeDto>;
}

@Injectable()
export class DispatchService {
  private readonly unhealthyMs: number;
  private readonly signalRules: DeliverySignalsConfig;
  private readonly batches = new ReportBatches<TakenReport, OutcomeDto>((smsConfigId, reports) =>
    retryDeadlockVictims(() => this.transactions.run(() => this.takeReports(smsConfigId, reports))),
  );

  constructor(
    private readonly dispatch: DispatchRepository,
    private readonly routes: RouteRepository,
    private readonly tokens: VerifyApiKeyIssuer,
    private readonly transactions: Transactions,
    private readonly auditLog: AuditLog,
    private readonly approval: ProviderHostApproval,
    private readonly destinationPrices: DestinationPriceRepository,
    private readonly clock: Clock,
    private readonly deliverySignals: DeliverySignals,
    config: ConfigService<AppConfig, true>,
  ) {
    this.unhealthyMs = config.get('dispatchUnhealthyMs', { infer: true });
    this.signalRules = config.get('deliverySignals', { infer: true });
  }

  async route(owner: AuthenticatedClient, request: RouteRequestDto): Promise<RouteDto> {
    const { destination } = request;
    const number = destination === undefined ? null : routedDestination(destination);
    if (destination !== undefined && number === null) {
      countRouteRefusal('impossible-number');
      throw new BadRequestException(IMPOSSIBLE_DESTINATION);
    }
    const now = this.clock.now();
    const [found, hosts, prices] = await Promise.all([
      this.routes.routable(owner.id, {
        callingCode: number?.callingCode ?? null,
        firstMinute: firstMinuteOf(now, this.signalRules.rateWindowMs),
        range: number?.range ?? null,
        now,
      }),
      this.approval.current(),
      destination === undefined ? [] : this.destinationPrices.ofClient(owner.id, prefixesOf(destination)),
    ]);
    if (found !== null) refuseDestination(destination, number, found);
    const smsConfigs = found?.smsConfigs ?? [];
    const priced = destination === undefined ? smsConfigs : pricedAt(smsConfigs, longestPrefixPrices(prices));
    const rates = { minReceipts: this.signalRules.rateMinReceipts, demoteBelowMillionths: this.signalRules.demoteBelowMillionths };
    // Once per configuration, not in each of the sort's comparisons.
    const demoted = new Set(
      priced.filter((config) => config.receipts !== null && isDemoted(config.receipts, rates)).map((config) => config.smsConfigId),
    );
    const { candidates, skipped } = route(priced, {
      approved: (config) => hosts.approves(config),
      demoted: (config) => demoted.has(config.smsConfigId),
      preferredSmsGateway: found?.preferredSmsGateway ?? null,
      smsType: request.smsType,
      count: request.count ?? 1,
      now,
      daily: found === null ? NO_DAILY_LIMITS : { ...found.client, ...usageOn(utcDayOf(now), found.client) },
    });
    countRouteSkips(skipped);
    countDemotions(candidates.filter((candidate) => demoted.has(candidate.smsConfigId)).length);
    return {
      clientId: owner.id,
      candidates: candidates.map((candidate) =>
        inFieldOrder(destination === undefined ? ROUTE_CANDIDATE_FIELDS_WITHOUT_DESTINATION : ROUTE_CANDIDATE_FIELDS, {
          ...candidate.shown,
          pricePrefix: candidate.pricePrefix,
          deliveryRate: candidate.receipts === null ? null : deliveryRateOf(candidate.receipts, rates),
          verifyApiKey: this.tokens.issueForSealed(
            {
              smsConfigId: candidate.smsConfigId,
              clientId: owner.id,
              credentialVersion: candidate.credentialVersion,
              presentedKeyDigest: owner.secretKeyDigest,
            },
            candidate.apiKeySealed,
          ),
        }),
      ),
      skipped,
    };
  }

  // Under the configuration's lock, so that concurrent reports from any instance each count.
  async report(report: OutcomeReportDto, origin: ChangeOrigin, keep?: KeepAnswer<OutcomeDto>): Promise<OutcomeDto> {
    if ((report.codesSent ?? 0) > report.sent) throw new BadRequestException('codesSent must not be more than sent');
    if (countsOf(report).every((count) => count === 0) && report.balance === undefined) {
      throw new BadRequestException(
        'a report must give one count >= 1 (sent, failed, delivered, undelivered, codesSent or verified) or balance',
      );
    }
    const number = reportedDestination(report.destination);
    // Inside a caller's transaction, alone: a batch started here would run in it, and take other requests' reports with it.
    if (this.transactions.active) {
      const [taken] = await this.takeReports(report.smsConfigId, [{ report, number, origin, keep }]);
      if (taken instanceof Error) throw taken;
      return taken;
    }
    return this.batches.submit(report.smsConfigId, { report, number, origin, keep });
  }

  // Each report in turn on the state the one before it left; one that is refused leaves the state as it was.
  private async takeReports(smsConfigId: number, reports: TakenReport[]): Promise<Array<OutcomeDto | Error>> {
    // Read before the locks: a price changed while the reports wait for them applies from the next batch.
    const pricesAt = await this.pricesOf(smsConfigId, reports);
    const locked = await this.dispatch.lockReported(smsConfigId);
    if (locked === null) return reports.map(() => new SmsConfigNotFoundException());
    const now = this.clock.now();
    let reported = locked;
    let usage: DailyUsage | null = null;
    const counted: Array<TakenReport & { reached: DailyLimit[] }> = [];
    const results: Array<OutcomeDto | Error> = [];
    for (const { report, number, origin, keep } of reports) {
      const price = (number === null ? undefined : pricesAt.get(number.e164)) ?? reported.perSmsCostMicros;
      const spentMicros = price * BigInt(report.sent);
      const balanceMicros = report.balance !== undefined ? microsOf(report.balance) : reported.balanceMicros - spentMicros;
      if (balanceMicros < LOWEST_BALANCE_MICROS) {
        results.push(new ConflictException(`balance would fall below -${MAX_AMOUNT_EXCLUSIVE}: the report was not taken`));
        continue;
      }
      const { health, crossing } = healthAfterReport(reported, report, now, this.unhealthyMs);
      const daily = report.sent === 0 ? null : usageAfterReport(reported.client, utcDayOf(now), { spentMicros, sent: report.sent });
      const outcome: OutcomeDto = {
        smsConfigId,
        balance: amountOf(balanceMicros),
        healthy: health.unhealthyUntil === null,
        unhealthyUntil: health.unhealthyUntil === null ? null : new Date(health.unhealthyUntil).toISOString(),
      };
      try {
        await keep?.(outcome);
      } catch (error) {
        // Its Idempotency-Key was taken over by a retry: the retry counts it, not this one.
        if (!(error instanceof IdempotentRequestInProgressException)) throw error;
        results.push(error);
        continue;
      }
      const entry = { origin, clientId: reported.clientId, smsConfigId };
      const reached = daily?.reached ?? [];
      for (const limit of reached) await this.auditLog.record({ action: 'client.daily-limit-reached', ...entry, changed: [limit] });
      // The provider's figure replaces the balance: audited, unlike a debit, which metrics count.
      if (report.balance !== undefined) await this.auditLog.record({ action: 'sms-config.balance-set', ...entry });
      if (fallsBelowThreshold(reported, balanceMicros)) await this.auditLog.record({ action: 'sms-config.balance-low', ...entry });
      if (crossing !== null) await this.auditLog.record({ action: crossing, ...entry });
      if (daily) usage = daily.usage;
      reported = { ...reported, ...health, balanceMicros, client: daily ? { ...reported.client, ...daily.usage } : reported.client };
      counted.push({ report, number, origin, reached });
      results.push(outcome);
    }
    if (counted.length > 0) {
      const { balanceMicros, consecutiveFailures, unhealthyUntil } = reported;
      await this.dispatch.recordReport(reported, { balanceMicros, consecutiveFailures, unhealthyUntil }, usage);
      await this.deliverySignals.record(reported, smsConfigId, counted.map(signalReportOf));
      this.transactions.afterCommit(() => {
        for (const { report, reached } of counted) {
          countReport(reported.providerName, report);
          reached.forEach(countDailyLimitReached);
        }
      });
    }
    return results;
  }

  // Per destination, the price of the configuration's longest prefix for it, if it has one.
  private async pricesOf(smsConfigId: number, reports: TakenReport[]): Promise<Map<string, bigint>> {
    const destinations = [...new Set(reports.flatMap(({ number }) => (number === null ? [] : [number.e164])))];
    const found = await Promise.all(
      destinations.map((destination) => this.destinationPrices.ofSmsConfig(smsConfigId, prefixesOf(destination))),
    );
    const prices = new Map<string, bigint>();
    destinations.forEach((destination, index) => {
      const price = longestPrefixPrices(found[index]).get(smsConfigId);
      if (price !== undefined) prices.set(destination, price.perSmsCostMicros);
    });
    return prices;
  }
}

// In this order: allowed destinations, the number's type, a range blocked for suspected pumping.
function refuseDestination(destination: string | undefined, number: DestinationNumber | null, found: Routable): void {
  const { allowedDestinations, allowPremiumNumbers, pumpingGuard, destinationSuspected } = found;
  if (destination === undefined || number === null) {
    if (allowedDestinations === null && pumpingGuard !== 'block') return;
    countRouteRefusal('destination-required');
    throw new BadRequestException('destination is required for this client');
  }
  if (allowedDestinations !== null && !isAllowedDestination(destination, allowedDestinations)) {
    countRouteRefusal('destination-not-allowed');
    throw new ForbiddenException(`destination ${destination} is not allowed for this client`);
  }
  const refusedType = allowPremiumNumbers ? null : number.refusedType();
  if (refusedType !== null) {
    countRouteRefusal('number-type');
    throw new ForbiddenException(`destination ${destination} is a ${refusedType} number, not allowed for this client`);
  }
  if (destinationSuspected) {
    countRouteRefusal('pumping-blocked');
    throw new ForbiddenException(`destination ${destination} is in range ${number.range}, blocked for suspected SMS pumping`);
  }
}

function fallsBelowThreshold({ balanceMicros, lowBalanceThresholdMicros }: ReportedSmsConfig, newBalanceMicros: bigint): boolean {
  return lowBalanceThresholdMicros !== null && balanceMicros >= lowBalanceThresholdMicros && newBalanceMicros < lowBalanceThresholdMicros;
}

// Reports are never refused for what was sent: another spelling counts as its E.164 form, an unreadable number as none.
function reportedDestination(destination: string | undefined): DestinationNumber | null {
  if (destination === undefined) return null;
  const number = readDestination(destination);
  countReportDestination(number === null ? 'unreadable' : number.e164 === destination ? 'e164' : 'respelled');
  return number;
}

function countsOf(report: OutcomeReportDto): number[] {
  const { sent, failed, delivered = 0, undelivered = 0, codesSent = 0, verified = 0 } = report;
  return [sent, failed, delivered, undelivered, codesSent, verified];
}

function signalReportOf({ report, number, origin }: TakenReport): SignalReport {
  const { sent, delivered = 0, undelivered = 0, codesSent = 0, verified = 0 } = report;
  return { number, sent, delivered, undelivered, codesSent, verified, origin };
}
