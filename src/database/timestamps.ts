// UTC text: MySQL's DATETIME takes it whatever the session's time zone, and SQLite keeps text that sorts as time does.
export function sqlTimestamp(date: Date): string {
  return date.toISOString().slice(0, 23).replace('T', ' ');
}

export function epochMsOf(value: Date | string | null): number | null {
  if (value === null) return null;
  if (value instanceof Date) return value.getTime();
  return Date.parse(`${value.replace(' ', 'T')}Z`);
}

export function isoTimestampOf(value: Date | string | null): string | null {
  const epochMs = epochMsOf(value);
  return epochMs === null ? null : new Date(epochMs).toISOString();
}
