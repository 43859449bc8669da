const DAY_MS = 86_400_000;
export const SHORTEST_KEY_LIFE_MS = 60_000;
export const LONGEST_KEY_LIFE_MS = 366 * DAY_MS;

const RFC_3339_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

export const EXPIRES_AT_FORMAT =
  'expiresAt must be null or an RFC 3339 instant with Z or an offset, at most 3 fraction digits (2027-01-31T12:00:00Z)';
export const EXPIRES_AT_RANGE = 'expiresAt must be at least 60 s and at most 366 days ahead';

export type ExpiresAtReading = { expiresAt: number } | { refusal: string };

/** A scoped key's end as epoch milliseconds (answered as `new Date(expiresAt).toISOString()`), or the refusal. */
export function readExpiresAt(value: unknown, nowMs: number): ExpiresAtReading {
  const instant = typeof value === 'string' ? epochMsOfInstant(value) : undefined;
  if (instant === undefined) return { refusal: EXPIRES_AT_FORMAT };
  const ahead = instant - nowMs;
  return ahead >= SHORTEST_KEY_LIFE_MS && ahead <= LONGEST_KEY_LIFE_MS ? { expiresAt: instant } : { refusal: EXPIRES_AT_RANGE };
}

// Each field within its range, the day within its month (no 30 February), no leap second: a Date would roll them over.
function epochMsOfInstant(text: string): number | undefined {
  const match = RFC_3339_INSTANT.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '0', sign, offsetHours = '0', offsetMinutes = '0'] = match;
  const fields = [year, month, day, hour, minute, second].map(Number);
  const local = Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4], fields[5], Number(fraction.padEnd(3, '0')));
  const rolled = new Date(local);
  const kept = [
    rolled.getUTCFullYear(),
    rolled.getUTCMonth() + 1,
    rolled.getUTCDate(),
    rolled.getUTCHours(),
    rolled.getUTCMinutes(),
    rolled.getUTCSeconds(),
  ];
  if (kept.some((field, index) => field !== fields[index]) || Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return undefined;
  const offsetMs = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  return sign === '-' ? local + offsetMs : local - offsetMs;
}
