import { PumpingGuard } from '../client/client.entity';
import { PumpingSignal } from './pumping-range.entity';
import { isShareBelow } from './signal-windows';

export type { PumpingGuard };

/** A range's sums over the pumping window: S, C, C′ (codes past the conversion grace) and V. */
export interface RangeWindow {
  sent: number;
  codesSent: number;
  settledCodesSent: number;
  verified: number;
}

export interface PumpingRules {
  minSent: number;
  velocityFactor: number;
  minConversionMillionths: number;
}

/** The signals a range's window shows against B, the client's highest window of the 7 days before today. */
export function pumpingSignalsOf(window: RangeWindow, baseline: number, rules: PumpingRules): PumpingSignal[] {
  const signals: PumpingSignal[] = [];
  if (window.sent > Math.max(rules.minSent, rules.velocityFactor * baseline)) signals.push('velocity');
  if (window.settledCodesSent >= rules.minSent && isShareBelow(window.verified, window.settledCodesSent, rules.minConversionMillionths)) {
    signals.push('conversion');
  }
  return signals;
}

// In block, what a suspected range sends does not teach the baseline, so a pumped range cannot raise its own bar.
export function countsTowardBaseline(guard: PumpingGuard, rangeSuspected: boolean): boolean {
  return guard === 'monitor' || !rangeSuspected;
}
