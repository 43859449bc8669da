/**
 * Times are written by the service, always in UTC, as `YYYY-MM-DD HH:MM:SS.mmm`: MySQL's DATETIME takes it whatever the
 * session's time zone, and SQLite keeps it as text that sorts as time does.
 */
export function sqlTimestamp(date: Date): string {
  return date.toISOString().slice(0, 23).replace('T', ' ');
}

/** A DATETIME as read back (mysql2: a Date, read as UTC; SQLite: the text written), as epoch ms; null stays null. */
export function epochMsOf(value: Date | string | null): number | null {
  if (value === null) return null;
  if (value instanceof Date) return value.getTime();
  return Date.parse(`${value.replace(' ', 'T')}Z`);
}

/** The same, as the API shows times: ISO-8601 UTC with milliseconds. */
export function isoTimestampOf(value: Date | string | null): string | null {
  const epochMs = epochMsOf(value);
  return epochMs === null ? null : new Date(epochMs).toISOString();
}
