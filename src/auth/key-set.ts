import { timingSafeEqual } from 'node:crypto';
import { sha256 } from './digest';

export class KeySet {
  private readonly digests: Buffer[];

  constructor(keys: string[]) {
    this.digests = keys.map(sha256);
  }

  get isEmpty(): boolean {
    return this.digests.length === 0;
  }

  // Every key is compared, so the time taken does not tell which one (or whether any) matched.
  has(presentedDigest: Buffer): boolean {
    let matched = false;
    for (const digest of this.digests) matched = timingSafeEqual(digest, presentedDigest) || matched;
    return matched;
  }
}
