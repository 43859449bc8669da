import { Global, Injectable, Module } from '@nestjs/common';

/** The service's time for what counts by the UTC day. Tests replace `now` on an app's instance; nothing else can set it. */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }

  /** Today in UTC, as YYYY-MM-DD: what daily counters are kept under. */
  today(): string {
    return utcDayOf(this.now());
  }
}

export function utcDayOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/**
 * Milliseconds on a clock that only moves forward (performance.now()), whatever is done to the system's: what waits and
 * ages are measured by. Tests replace `now` on an app's instance, as they do Clock's; nothing else can set it.
 */
@Injectable()
export class MonotonicClock {
  now(): number {
    return performance.now();
  }
}

@Global()
@Module({ providers: [Clock, MonotonicClock], exports: [Clock, MonotonicClock] })
export class ClockModule {}
