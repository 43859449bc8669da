import { Injectable } from '@nestjs/common';

// The caller's address as Fastify gives it (request.ip), written out only when flushed: nothing more per request.
export interface KeyUse {
  // auth's KeyShape, named not imported (auth/ notes here): a root key's use goes to client, a scoped key's to client_key.
  shape: 'root' | 'scoped';
  usedAt: number;
  ip: string | undefined;
  // Only relayed uses since the last flush (route: the address is the dispatcher's), so the stored address stays.
  relayed?: boolean;
}

@Injectable()
export class KeyUsageNotes {
  private notes = new Map<string, KeyUse>();

  // The latest use wins: at most one address per key per flush interval.
  // In place when the key was noted already: get-client notes every answer, and an object each is garbage each.
  note(secretKeyDigest: string, shape: KeyUse['shape'], ip: string | undefined, usedAt = Date.now()): void {
    const use = this.notes.get(secretKeyDigest);
    if (use === undefined) this.notes.set(secretKeyDigest, { shape, usedAt, ip });
    else {
      use.usedAt = usedAt;
      use.ip = ip;
      if (use.relayed) use.relayed = undefined;
    }
  }

  // A key the dispatcher relays: its time moves, its address stays that of the last direct use.
  noteRelayed(secretKeyDigest: string, shape: KeyUse['shape'], usedAt = Date.now()): void {
    const use = this.notes.get(secretKeyDigest);
    if (use === undefined) this.notes.set(secretKeyDigest, { shape, usedAt, ip: undefined, relayed: true });
    else use.usedAt = usedAt;
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
      this.notes.set(secretKeyDigest, later === undefined ? use : latestOf(later, use));
    }
  }
}

// The later use, with the other's address when only the later was relayed.
function latestOf(noted: KeyUse, putBack: KeyUse): KeyUse {
  const [later, earlier] = noted.usedAt < putBack.usedAt ? [putBack, noted] : [noted, putBack];
  return later.relayed && !earlier.relayed ? { shape: later.shape, usedAt: later.usedAt, ip: earlier.ip } : later;
}
