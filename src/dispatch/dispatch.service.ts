import { BadRequestException, ConflictException, ForbiddenException, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuditLog } from '../audit/audit.repository';
import { ChangeOrigin } from '../auth/actor';
import { inFieldOrder } from '../common/answer-fields';
import { AuthenticatedClient } from '../auth/client-lookup';
import { MAX_AMOUNT_EXCLUSIVE } from '../common/validation/decorators';
import { Clock, utcDayOf } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { retryDeadlockVictims } from '../database/deadlock-retry';
import { amountOf, microsOf } from '../database/exact-decimal';
import { Transactions } from '../database/transactions';
import { ProviderHostApproval } from '../provider-host/provider-host-approval';
import { SmsConfigNotFoundException } from '../sms-config/sms-config.service';
import { VerifyApiKeyIssuer } from '../sms-config/verify-api-key-issuer';
import { DestinationPriceRepository } from '../sms-config/destination-price.repository';
import { isAllowedDestination, longestPrefixPrices, prefixesOf, pricedAt } from './destination-pricing';
import { route } from './dispatch-routing';
import { DailyLimit, usageAfterReport, usageOn } from './daily-usage';
import { countDailyLimitReached, countReport, countRouteRefusal, countRouteSkips } from './dispatch.metrics';
import { DispatchRepository, ReportedSmsConfig } from './dispatch.repository';
import { OutcomeDto, OutcomeReportDto } from './dto/dispatch-outcome.dto';
import { ROUTE_CANDIDATE_FIELDS, ROUTE_CANDIDATE_FIELDS_WITHOUT_DESTINATION, RouteDto, RouteRequestDto } from './dto/dispatch-route.dto';
import { healthAfterReport } from './provider-health';

const NO_DAILY_LIMITS = { dailySpendLimitMicros: null, dailySmsLimit: null, spentMicros: 0n, sent: 0 };

// A debit may take a balance below zero, but not below what DECIMAL(18,6) holds.
const LOWEST_BALANCE_MICROS = -(BigInt(MAX_AMOUNT_EXCLUSIVE) * 1_000_000n - 1n);

@Injectable()
export class DispatchService {
  private readonly unhealthyMs: number;

  constructor(
    private readonly dispatch: DispatchRepository,
    private readonly tokens: VerifyApiKeyIssuer,
    private readonly transactions: Transactions,
    private readonly auditLog: AuditLog,
    private readonly approval: ProviderHostApproval,
    private readonly destinationPrices: DestinationPriceRepository,
    private readonly clock: Clock,
    config: ConfigService<AppConfig, true>,
  ) {
    this.unhealthyMs = config.get('dispatchUnhealthyMs', { infer: true });
  }

  async route(owner: AuthenticatedClient, request: RouteRequestDto): Promise<RouteDto> {
    const { destination } = request;
    const [found, hosts, prices] = await Promise.all([
      this.dispatch.routable(owner.id),
      this.approval.current(),
      destination === undefined ? [] : this.destinationPrices.ofClient(owner.id, prefixesOf(destination)),
    ]);
    refuseOutsideAllowed(destination, found?.allowedDestinations ?? null);
    const smsConfigs = found?.smsConfigs ?? [];
    const priced = destination === undefined ? smsConfigs : pricedAt(smsConfigs, longestPrefixPrices(prices));
    const now = this.clock.now();
    const { candidates, skipped } = route(priced, {
      approved: (config) => hosts.approves(config),
      preferredSmsGateway: found?.preferredSmsGateway ?? null,
      smsType: request.smsType,
      count: request.count ?? 1,
      now,
      daily: found === null ? NO_DAILY_LIMITS : { ...found.client, ...usageOn(utcDayOf(now), found.client) },
    });
    countRouteSkips(skipped);
    return {
      clientId: owner.id,
      candidates: candidates.map((candidate) =>
        inFieldOrder(destination === undefined ? ROUTE_CANDIDATE_FIELDS_WITHOUT_DESTINATION : ROUTE_CANDIDATE_FIELDS, {
          ...candidate.shown,
          pricePrefix: candidate.pricePrefix,
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
  async report(report: OutcomeReportDto, origin: ChangeOrigin): Promise<OutcomeDto> {
    if (report.sent + report.failed === 0 && report.balance === undefined) {
      throw new BadRequestException('a report must count at least one message (sent + failed >= 1) or give balance');
    }
    const take = () => this.transactions.run(() => this.takeReport(report, origin));
    // Inside a larger transaction, a deadlock rolls all of it back: it is answered, not retried here.
    const { reported, reached, outcome } = await (this.transactions.active ? take() : retryDeadlockVictims(take));
    countReport(reported.providerName, report);
    for (const limit of reached) countDailyLimitReached(limit);
    return outcome;
  }

  private async takeReport(
    report: OutcomeReportDto,
    origin: ChangeOrigin,
  ): Promise<{ reported: ReportedSmsConfig; reached: DailyLimit[]; outcome: OutcomeDto }> {
    // Read before the locks: a price changed while the report waits for them applies from the next report.
    const prices =
      report.destination === undefined ? [] : await this.destinationPrices.ofSmsConfig(report.smsConfigId, prefixesOf(report.destination));
    const reported = (await this.dispatch.lockReported(report.smsConfigId)) ?? throwNotFound();
    const price = longestPrefixPrices(prices).get(reported.smsConfigId)?.perSmsCostMicros ?? reported.perSmsCostMicros;
    const spentMicros = price * BigInt(report.sent);
    const balanceMicros = report.balance !== undefined ? microsOf(report.balance) : reported.balanceMicros - spentMicros;
    if (balanceMicros < LOWEST_BALANCE_MICROS) {
      throw new ConflictException(`balance would fall below -${MAX_AMOUNT_EXCLUSIVE}: the report was not taken`);
    }
    const now = this.clock.now();
    const { health, crossing } = healthAfterReport(reported, report, now, this.unhealthyMs);
    const daily = report.sent === 0 ? null : usageAfterReport(reported.client, utcDayOf(now), { spentMicros, sent: report.sent });
    await this.dispatch.recordReport(reported, { balanceMicros, ...health }, daily?.usage ?? null);
    const entry = { origin, clientId: reported.clientId, smsConfigId: reported.smsConfigId };
    const reached = daily?.reached ?? [];
    for (const limit of reached) await this.auditLog.record({ action: 'client.daily-limit-reached', ...entry, changed: [limit] });
    // The provider's figure replaces the balance: audited, unlike a debit, which metrics count.
    if (report.balance !== undefined) await this.auditLog.record({ action: 'sms-config.balance-set', ...entry });
    if (fallsBelowThreshold(reported, balanceMicros)) await this.auditLog.record({ action: 'sms-config.balance-low', ...entry });
    if (crossing !== null) await this.auditLog.record({ action: crossing, ...entry });
    return {
      reported,
      reached,
      outcome: {
        smsConfigId: reported.smsConfigId,
        balance: amountOf(balanceMicros),
        healthy: health.unhealthyUntil === null,
        unhealthyUntil: health.unhealthyUntil === null ? null : new Date(health.unhealthyUntil).toISOString(),
      },
    };
  }
}

function refuseOutsideAllowed(destination: string | undefined, allowedDestinations: string[] | null): void {
  if (allowedDestinations === null) return;
  if (destination === undefined) {
    countRouteRefusal('destination-required');
    throw new BadRequestException('destination is required for this client');
  }
  if (!isAllowedDestination(destination, allowedDestinations)) {
    countRouteRefusal('destination-not-allowed');
    throw new ForbiddenException(`destination ${destination} is not allowed for this client`);
  }
}

function fallsBelowThreshold({ balanceMicros, lowBalanceThresholdMicros }: ReportedSmsConfig, newBalanceMicros: bigint): boolean {
  return lowBalanceThresholdMicros !== null && balanceMicros >= lowBalanceThresholdMicros && newBalanceMicros < lowBalanceThresholdMicros;
}

function throwNotFound(): never {
  throw new SmsConfigNotFoundException();
}
