// Counts are kept per UTC minute; "the last W ms" is the minutes whose start lies in (now − W, now].
export const MINUTE_MS = 60_000;

export function minuteOf(epochMs: number): number {
  return Math.floor(epochMs / MINUTE_MS);
}

export function firstMinuteOf(now: number, windowMs: number): number {
  return minuteOf(now - windowMs) + 1;
}

// The last minute that starts at or before now − grace, the grace rounded up to whole minutes.
export function lastMinuteBefore(now: number, graceMs: number): number {
  return minuteOf(now - Math.ceil(graceMs / MINUTE_MS) * MINUTE_MS);
}

/** True when part ÷ whole < threshold, the threshold in millionths: compared on integers, never as floats. */
export function isShareBelow(part: number, whole: number, thresholdMillionths: number): boolean {
  return BigInt(part) * 1_000_000n < BigInt(thresholdMillionths) * BigInt(whole);
}
