import { KeyIdCount } from './sealed-column.repository';
import { RowColumns, SealedColumn } from './sealed-columns';

/** What the walk did with one column's values so far. */
export interface ColumnTally {
  read: number;
  moved: number;
  /** Already under the current key (and open). */
  current: number;
  /** Replaced by another writer between read and write: that writer sealed them under the current key. */
  changed: number;
  failed: number;
}

export const emptyTally = (): ColumnTally => ({ read: 0, moved: 0, current: 0, changed: 0, failed: 0 });

/** The shape of ENCRYPTION_KEYS ids: what is not one is never printed, as it may be part of a stored value. */
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const MALFORMED = '(malformed)';

export function keyIdLabel(keyId: string): string {
  return KEY_ID.test(keyId) ? keyId : MALFORMED;
}

/** The text before the first colon of a sealed value. */
export function keyIdOf(sealed: string): string {
  const separator = sealed.indexOf(':');
  return separator < 0 ? '' : sealed.slice(0, separator);
}

export function columnName({ table, column }: SealedColumn): string {
  return `${table}.${column}`;
}

/** A row named by its primary key: `id 42`, `scope client-add, idempotency_key 7f3c`. Never a sealed value. */
export function rowName(sealedColumn: SealedColumn, row: RowColumns): string {
  return sealedColumn.key.map((name) => `${name} ${String(row[name])}`).join(', ');
}

export function progressLine(sealedColumn: SealedColumn, tally: ColumnTally, currentKeyId: string): string {
  return (
    `reseal: ${columnName(sealedColumn)}: ${tally.read} read, ${tally.moved} moved, ${tally.current} already under ${currentKeyId}, ` +
    `${tally.changed} changed meanwhile, ${tally.failed} failed`
  );
}

/**
 * Values under every key id but the current one, summed over the columns, by key id: first every older key
 * ENCRYPTION_KEYS lists, in its order and with 0 when none is left (so the line says each was checked), then the key
 * ids found that it does not list, sorted.
 */
export function remainingUnderOlderKeys(counts: KeyIdCount[], currentKeyId: string, listedKeyIds: readonly string[]): KeyIdCount[] {
  const listed = new Map(listedKeyIds.filter((keyId) => keyId !== currentKeyId).map((keyId) => [keyId, 0]));
  const unlisted = new Map<string, number>();
  for (const { keyId, count } of counts) {
    if (keyId === currentKeyId) continue;
    const tally = listed.has(keyId) ? listed : unlisted;
    const label = keyIdLabel(keyId);
    tally.set(label, (tally.get(label) ?? 0) + count);
  }
  const unlistedSorted = [...unlisted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [...listed, ...unlistedSorted].map(([keyId, count]) => ({ keyId, count }));
}

/** Nothing left under an older key, listed or not. */
export function noneRemaining(remaining: KeyIdCount[]): boolean {
  return remaining.every(({ count }) => count === 0);
}

/**
 * The last line: `reseal: moved 12; remaining k1=0`, `reseal: moved 12; remaining k1=3, old=1`, or, with a single key
 * listed and nothing under another, `reseal: moved 12; remaining none`.
 */
export function summaryLine(moved: number, remaining: KeyIdCount[]): string {
  const counts = remaining.map(({ keyId, count }) => `${keyId}=${count}`).join(', ');
  return `reseal: moved ${moved}; remaining ${counts || 'none'}`;
}
