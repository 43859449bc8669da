import { Injectable } from '@nestjs/common';

// The caller's address as Fastify gives it (request.ip), written out only when flushed: nothing more per request.
export interface KeyUse {
  usedAt: number;
  ip: string | undefined;
}

@Injectable()
export class KeyUsageNotes {
  private notes = new Map<string, KeyUse>();

  // The latest use wins: at most one address per key per flush interval.
  // In place when the key was noted already: get-client notes every answer, and an object each is garbage each.
  note(secretKeyDigest: string, ip: string | undefined, usedAt = Date.now()): void {
    const use = this.notes.get(secretKeyDigest);
    if (use === undefined) this.notes.set(secretKeyDigest, { usedAt, ip });
    else {
      use.usedAt = usedAt;
      use.ip = ip;
    }
  }

  get size(): number {
    return this.notes.size;
  }

  take(): Map<string, KeyUse> {
    const taken = this.notes;
    this.notes = new Map();
    return taken;
  }

  putBack(notes: Map<string, KeyUse>): void {
    for (const [secretKeyDigest, use] of notes) {
      const later = this.notes.get(secretKeyDigest);
      if (later === undefined || later.usedAt < use.usedAt) this.notes.set(secretKeyDigest, use);
    }
  }
}
