import { Injectable } from '@nestjs/common';

/**
 * The latest use of each client key on this instance since the last flush, by the key's SHA-256: one entry per key
 * whatever the traffic, and none once a flush has taken them. Noting is a Map write, cheap enough for get-client's
 * cached path; writing them is KeyUsageFlusher's, off every request's path.
 */
@Injectable()
export class KeyUsageNotes {
  private notes = new Map<string, number>();

  /** A request authenticated with this key, now (epoch ms): a later use replaces an earlier one. */
  note(secretKeyDigest: string, usedAt = Date.now()): void {
    this.notes.set(secretKeyDigest, usedAt);
  }

  get size(): number {
    return this.notes.size;
  }

  /** Every note so far, leaving none behind: the uses a flush writes. */
  take(): Map<string, number> {
    const taken = this.notes;
    this.notes = new Map();
    return taken;
  }

  /** Notes a flush could not write, kept for the next one; a use noted meanwhile is later and stays. */
  putBack(notes: Map<string, number>): void {
    for (const [secretKeyDigest, usedAt] of notes) {
      const later = this.notes.get(secretKeyDigest);
      if (later === undefined || later < usedAt) this.notes.set(secretKeyDigest, usedAt);
    }
  }
}
