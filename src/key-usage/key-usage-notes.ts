import { Injectable } from '@nestjs/common';

@Injectable()
export class KeyUsageNotes {
  private notes = new Map<string, number>();

  note(secretKeyDigest: string, usedAt = Date.now()): void {
    this.notes.set(secretKeyDigest, usedAt);
  }

  get size(): number {
    return this.notes.size;
  }

  take(): Map<string, number> {
    const taken = this.notes;
    this.notes = new Map();
    return taken;
  }

  putBack(notes: Map<string, number>): void {
    for (const [secretKeyDigest, usedAt] of notes) {
      const later = this.notes.get(secretKeyDigest);
      if (later === undefined || later < usedAt) this.notes.set(secretKeyDigest, usedAt);
    }
  }
}
