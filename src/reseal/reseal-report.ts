import { KeyIdCount } from './sealed-column.repository';
import { RowColumns, SealedColumn } from './sealed-columns';

export interface ColumnTally {
  read: number;
  moved: number;
  current: number;
  // Replaced by another writer between read and write, under the current key.
  changed: number;
  failed: number;
}

export const emptyTally = (): ColumnTally => ({ read: 0, moved: 0, current: 0, changed: 0, failed: 0 });

// What is not a key id is never printed: it may be part of a stored value.
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const MALFORMED = '(malformed)';

export function keyIdLabel(keyId: string): string {
  return KEY_ID.test(keyId) ? keyId : MALFORMED;
}

export function keyIdOf(sealed: string): string {
  const separator = sealed.indexOf(':');
  return separator < 0 ? '' : sealed.slice(0, separator);
}

export function columnName({ table, column }: SealedColumn): string {
  return `${table}.${column}`;
}

export function rowName(sealedColumn: SealedColumn, row: RowColumns): string {
  return sealedColumn.key.map((name) => `${name} ${String(row[name])}`).join(', ');
}

export function progressLine(sealedColumn: SealedColumn, tally: ColumnTally, currentKeyId: string): string {
  return (
    `reseal: ${columnName(sealedColumn)}: ${tally.read} read, ${tally.moved} moved, ${tally.current} already under ${currentKeyId}, ` +
    `${tally.changed} changed meanwhile, ${tally.failed} failed`
  );
}

// Listed keys show 0 when none is left, so the last line says each was checked (docs/key-retirement.md).
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

export function noneRemaining(remaining: KeyIdCount[]): boolean {
  return remaining.every(({ count }) => count === 0);
}

export function summaryLine(moved: number, remaining: KeyIdCount[]): string {
  const counts = remaining.map(({ keyId, count }) => `${keyId}=${count}`).join(', ');
  return `reseal: moved ${moved}; remaining ${counts || 'none'}`;
}
