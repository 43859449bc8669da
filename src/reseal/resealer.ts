import { SecretSealer, UnsealError } from '../crypto/secret-sealer';
import {
  ColumnTally,
  columnName,
  emptyTally,
  keyIdLabel,
  keyIdOf,
  noneRemaining,
  progressLine,
  remainingUnderOlderKeys,
  rowName,
  summaryLine,
} from './reseal-report';
import { KeyIdCount, SealedColumnRepository, SealedRow } from './sealed-column.repository';

export const BATCH_SIZE = 500;

export interface ResealOutcome {
  moved: number;
  failed: number;
  remaining: KeyIdCount[];
  stopped: boolean;
}

export function isComplete(outcome: ResealOutcome): boolean {
  return !outcome.stopped && outcome.failed === 0 && noneRemaining(outcome.remaining);
}

type Verdict = { kind: 'current' } | { kind: 'reseal'; resealed: string } | { kind: 'failed'; reason: string };

export class Resealer {
  constructor(
    private readonly columns: SealedColumnRepository[],
    private readonly sealer: SecretSealer,
    private readonly listedKeyIds: readonly string[],
    private readonly print: (line: string) => void,
    private readonly batchSize = BATCH_SIZE,
  ) {}

  async run(stop?: AbortSignal): Promise<ResealOutcome> {
    let moved = 0;
    let failed = 0;
    let stopped = false;
    for (const repository of this.columns) {
      const column = await this.resealColumn(repository, stop);
      moved += column.tally.moved;
      failed += column.tally.failed;
      stopped = column.stopped;
      if (stopped) break;
    }
    const counts = (await Promise.all(this.columns.map((repository) => repository.countByKeyId()))).flat();
    const remaining = remainingUnderOlderKeys(counts, this.sealer.currentKeyId, this.listedKeyIds);
    const outcome = { moved, failed, remaining, stopped };
    if (!stopped && failed === 0 && !noneRemaining(remaining)) {
      this.print(
        `reseal: values under older keys were written during the run: once every instance seals with ${this.sealer.currentKeyId} ` +
          '(first in ENCRYPTION_KEYS), run it again',
      );
    }
    this.print(summaryLine(moved, remaining));
    return outcome;
  }

  private async resealColumn(repository: SealedColumnRepository, stop?: AbortSignal): Promise<{ tally: ColumnTally; stopped: boolean }> {
    const { sealedColumn } = repository;
    const tally = emptyTally();
    let after: SealedRow | undefined;
    for (;;) {
      const batch = await repository.readAfter(after?.row, this.batchSize);
      for (const value of batch) {
        if (stop?.aborted) {
          this.print(
            `reseal: stopped (${String(stop.reason)}) at ${columnName(sealedColumn)}, ${rowName(sealedColumn, value.row)}, ` +
              `after moving ${tally.moved} of its values; run it again to go on`,
          );
          return { tally, stopped: true };
        }
        await this.resealValue(repository, value, tally);
        after = value;
      }
      if (batch.length > 0) this.print(progressLine(sealedColumn, tally, this.sealer.currentKeyId));
      if (batch.length < this.batchSize) return { tally, stopped: false };
    }
  }

  private async resealValue(repository: SealedColumnRepository, value: SealedRow, tally: ColumnTally): Promise<void> {
    tally.read++;
    const verdict = this.judge(repository, value);
    if (verdict.kind === 'current') tally.current++;
    else if (verdict.kind === 'failed') {
      tally.failed++;
      this.print(`reseal: ${columnName(repository.sealedColumn)} of ${rowName(repository.sealedColumn, value.row)}: ${verdict.reason}`);
    } else if (await repository.replace(value, verdict.resealed)) tally.moved++;
    else tally.changed++;
  }

  private judge({ sealedColumn }: SealedColumnRepository, value: SealedRow): Verdict {
    const keyId = keyIdOf(value.sealed);
    if (!this.listedKeyIds.includes(keyId)) {
      return { kind: 'failed', reason: `sealed under key id ${keyIdLabel(keyId)}, which ENCRYPTION_KEYS does not list` };
    }
    const context = sealedColumn.contextOf(value.row);
    let plaintext: string;
    try {
      plaintext = this.sealer.open(value.sealed, context);
    } catch (error) {
      if (!(error instanceof UnsealError)) throw error;
      return { kind: 'failed', reason: `does not open under key id ${keyId} (${error.message})` };
    }
    if (keyId === this.sealer.currentKeyId) return { kind: 'current' };
    return { kind: 'reseal', resealed: this.sealer.seal(plaintext, context) };
  }
}
