import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuditLog } from '../audit/audit.repository';
import { ChangeOrigin } from '../auth/actor';
import { PumpingGuard } from '../client/client.entity';
import { Clock, utcDayOf } from '../common/clock';
import { AppConfig, DeliverySignalsConfig } from '../config/app-config';
import { Transactions } from '../database/transactions';
import { countDeliverySignals, countSuspicion, SignalKind } from './delivery-signals.metrics';
import { DeliveryCountAdded, DeliverySignalsRepository, PumpingCountAdded, Suspicion } from './delivery-signals.repository';
import { DestinationNumber } from './destination-number';
import { countsTowardBaseline, pumpingSignalsOf, PumpingRules, RangeWindow } from './pumping-guard';
import { firstMinuteOf, lastMinuteBefore, minuteOf } from './signal-windows';

const DAY_MS = 24 * 60 * 60 * 1000;
const BASELINE_DAYS = 7;

export interface SignalReport extends Record<SignalKind, number> {
  number: DestinationNumber | null;
  sent: number;
  origin: ChangeOrigin;
}

export interface ReportingClient {
  clientId: number;
  pumpingGuard: PumpingGuard;
}

/** What outcome reports teach: receipts per configuration and calling code, and the pumping guard per client and range. */
@Injectable()
export class DeliverySignals {
  private readonly rules: DeliverySignalsConfig;
  private readonly pumpingRules: PumpingRules;

  constructor(
    private readonly signals: DeliverySignalsRepository,
    private readonly auditLog: AuditLog,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    config: ConfigService<AppConfig, true>,
  ) {
    this.rules = config.get('deliverySignals', { infer: true });
    this.pumpingRules = {
      minSent: this.rules.pumpingMinSent,
      velocityFactor: this.rules.pumpingVelocityFactor,
      minConversionMillionths: this.rules.pumpingMinConversionMillionths,
    };
  }

  // In the reports' transaction, under the client's row lock, the reports in the order taken.
  async record(client: ReportingClient, smsConfigId: number, reports: SignalReport[]): Promise<void> {
    const now = this.clock.now();
    const minute = minuteOf(now);
    const located = reports.flatMap((report) => (report.number === null ? [] : [{ report, number: report.number }]));
    await this.signals.addDeliveryCounts(smsConfigId, deliveryCountsOf(located, minute));
    if (client.pumpingGuard !== 'off' && located.length > 0) await this.guard(client, smsConfigId, located, now);
    this.transactions.afterCommit(() => {
      for (const report of reports) countDeliverySignals(report);
    });
  }

  private async guard(
    { clientId, pumpingGuard }: ReportingClient,
    smsConfigId: number,
    located: Array<{ report: SignalReport; number: { range: string } }>,
    now: number,
  ): Promise<void> {
    const minute = minuteOf(now);
    const lastSettledMinute = lastMinuteBefore(now, this.rules.pumpingConversionGraceMs);
    const today = utcDayOf(now);
    const state = await this.signals.pumpingState({
      clientId,
      ranges: [...new Set(located.map(({ number }) => number.range))],
      firstMinute: firstMinuteOf(now, this.rules.pumpingWindowMs),
      lastSettledMinute,
      now,
      firstDay: utcDayOf(now - BASELINE_DAYS * DAY_MS),
    });
    const baseline = Math.max(0, ...[...state.highestByDay].filter(([day]) => day !== today).map(([, highest]) => highest));
    const highestBefore = state.highestByDay.get(today) ?? 0;
    let highestToday = highestBefore;
    const added = new Map<string, PumpingCountAdded>();
    const suspicions: Array<Suspicion & { origin: ChangeOrigin }> = [];
    for (const { report, number } of located) {
      const { range } = number;
      const window: RangeWindow = state.windows.get(range) ?? { sent: 0, codesSent: 0, settledCodesSent: 0, verified: 0 };
      window.sent += report.sent;
      window.codesSent += report.codesSent;
      if (minute <= lastSettledMinute) window.settledCodesSent += report.codesSent;
      window.verified += report.verified;
      state.windows.set(range, window);
      const count = added.get(range) ?? { range, minute, sent: 0, codesSent: 0, verified: 0 };
      count.sent += report.sent;
      count.codesSent += report.codesSent;
      count.verified += report.verified;
      added.set(range, count);
      const suspected = state.suspected.has(range);
      const signals = suspected ? [] : pumpingSignalsOf(window, baseline, this.pumpingRules);
      if (signals.length > 0) {
        state.suspected.add(range);
        const until = now + this.rules.pumpingBlockMs;
        suspicions.push({ clientId, range, signals, window: { ...window }, suspectedAt: now, until, origin: report.origin });
      } else if (countsTowardBaseline(pumpingGuard, suspected)) {
        highestToday = Math.max(highestToday, window.sent);
      }
    }
    await this.signals.addPumpingCounts(
      clientId,
      [...added.values()].filter((count) => count.sent + count.codesSent + count.verified > 0),
    );
    if (highestToday > highestBefore) await this.signals.raiseBaseline(clientId, today, highestToday);
    for (const { origin, ...suspicion } of suspicions) {
      await this.signals.addSuspicion(suspicion);
      await this.auditLog.record({
        action: pumpingGuard === 'block' ? 'client.pumping-blocked' : 'client.pumping-suspected',
        origin,
        clientId,
        smsConfigId,
        changed: suspicion.signals,
        details: { range: suspicion.range },
      });
      this.transactions.afterCommit(() => countSuspicion(suspicion.signals, pumpingGuard));
    }
  }
}

function deliveryCountsOf(located: Array<{ report: SignalReport; number: { callingCode: string } }>, minute: number): DeliveryCountAdded[] {
  const byCode = new Map<string, DeliveryCountAdded>();
  for (const { report, number } of located) {
    const { callingCode } = number;
    if (report.delivered + report.undelivered === 0) continue;
    const count = byCode.get(callingCode) ?? { callingCode, minute, delivered: 0, undelivered: 0 };
    count.delivered += report.delivered;
    count.undelivered += report.undelivered;
    byCode.set(callingCode, count);
  }
  return [...byCode.values()];
}
