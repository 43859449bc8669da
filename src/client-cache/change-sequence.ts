import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ScriptStatement } from '../database/transactions';
import type { ChangeSequenceRepository, SequencedLine } from './change-sequence.repository';

// At least every 500 ms (docs/operations.md), with room for the read itself within the promised second.
export const READ_EVERY_MS = 400;
// Ids are handed out at insert, not commit: an id missing below one read is looked for again until the time between
// successful reads adds up to this (a transaction commits within 3 s of its line, or rolls back: Transactions).
export const GAP_WAIT_MS = 5000;
// More ids missing at once than this (a jump of the counter, a huge rollback) and the cache is emptied instead; at
// start, the ids missing among this many below the highest are taken as missing.
export const MAX_GAPS = 500;
export const PAGE_ROWS = 1000;
// A read held by the database at shutdown is not waited for past this: the database's own timeout would end it.
const STOP_WAIT_MS = 1000;

/** Where the lines a change applies go: the same place as the bus's. */
export interface SequenceListener {
  apply(lines: string[]): void;
  forgetEverything(): void;
}

export interface ChangeSequenceOptions {
  readEveryMs?: number;
  now?: () => number;
}

/**
 * The change sequence: each change's lines are written in its transaction (append), and every instance reads what it
 * has not seen yet, one read at a time, so a change reaches it within a second whether or not the bus carried it.
 */
export class ChangeSequence implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ChangeSequence');
  // This process's lines: already applied here when written.
  readonly origin = randomBytes(8).toString('hex');
  // The highest id read; 0 before anything was (its row tells whether what came after it was pruned).
  private mark = 0;
  // Each missing id, with the time between successful reads since it was first seen missing.
  private readonly gaps = new Map<number, number>();
  // When the last read answered, if it succeeded: the time from there to the next successful read counts for the gaps.
  private lastReadAt?: number;
  private readonly readEveryMs: number;
  private readonly now: () => number;
  private timer?: NodeJS.Timeout;
  private reading: Promise<void> = Promise.resolve();
  private stopped = false;
  private failing = false;

  constructor(
    private readonly repository: ChangeSequenceRepository,
    private readonly listener: SequenceListener,
    options: ChangeSequenceOptions = {},
  ) {
    this.readEveryMs = options.readEveryMs ?? READ_EVERY_MS;
    this.now = options.now ?? (() => performance.now());
  }

  async onApplicationBootstrap(): Promise<void> {
    // Whatever was written before the start is in no cache of this instance yet, but a line still uncommitted will be.
    const latest = await this.repository.latestIds(MAX_GAPS + 1);
    this.mark = latest[0] ?? 0;
    const present = new Set(latest);
    for (let id = Math.max(1, this.mark - MAX_GAPS); id < this.mark; id++) if (!present.has(id)) this.gaps.set(id, 0);
    this.schedule(this.readEveryMs);
  }

  // Not at module destroy: an instance draining before it stops still serves, so it still learns changes; and a read
  // held by the database must not hold up the drain, which starts after every module is destroyed.
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.race([this.reading, sleep(STOP_WAIT_MS, undefined, { ref: false })]);
  }

  append(lines: string[]): Promise<void> {
    return this.repository.append(lines, this.origin);
  }

  appendStatement(lines: string[]): ScriptStatement {
    return this.repository.appendStatement(lines, this.origin);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const started = this.now();
      this.reading = this.readNow().then((more) => this.schedule(more ? 0 : Math.max(0, this.readEveryMs - (this.now() - started))));
    }, delayMs).unref();
  }

  // True when a full page came back: the rest is read at once.
  async readNow(): Promise<boolean> {
    const startedAt = this.now();
    try {
      const more = await this.read(startedAt);
      if (this.failing) this.logger.log('Change sequence read again');
      this.failing = false;
      return more;
    } catch (error) {
      if (!this.failing && !this.stopped)
        this.logger.warn(`Change sequence not read (the bus and the cache's age limits remain): ${(error as Error).message}`);
      this.failing = true;
      this.lastReadAt = undefined;
      return false;
    }
  }

  private async read(startedAt: number): Promise<boolean> {
    const rows = await this.repository.readFrom(this.mark, [...this.gaps.keys()], PAGE_ROWS);
    // Neither the time while reads fail nor a read the database holds counts: only the time between two that answered.
    const covered = this.lastReadAt === undefined ? 0 : startedAt - this.lastReadAt;
    this.lastReadAt = this.now();
    const above = rows.filter((row) => row.id > this.mark);
    const markRowGone = this.mark > 0 && !rows.some((row) => row.id === this.mark);
    if (markRowGone && above.length > 0 && above[0].id > this.mark + 1) {
      // Pruned while away: what was missed is unknown.
      this.gaps.clear();
      this.listener.forgetEverything();
      this.mark = above[0].id;
      this.track(above.slice(1));
      return rows.length === PAGE_ROWS;
    }
    const found = rows.filter((row) => (row.id > this.mark || this.gaps.delete(row.id)) && row.origin !== this.origin);
    if (found.length > 0) this.listener.apply(found.map((row) => row.line));
    // Looked for by this read: past 5 s of reads, a gap is an id rolled back.
    for (const [id, waited] of this.gaps) {
      if (waited + covered >= GAP_WAIT_MS) this.gaps.delete(id);
      else this.gaps.set(id, waited + covered);
    }
    this.track(above);
    return rows.length === PAGE_ROWS;
  }

  // Moves the mark over rows read above it, noting the ids skipped as gaps.
  private track(above: SequencedLine[]): void {
    for (const { id } of above) {
      if (id - this.mark - 1 + this.gaps.size > MAX_GAPS) {
        this.gaps.clear();
        this.listener.forgetEverything();
      } else for (let missing = this.mark + 1; missing < id; missing++) this.gaps.set(missing, 0);
      this.mark = id;
    }
  }
}
