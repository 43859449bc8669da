import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions';
import { CacheInvalidationBus, InvalidationScope } from './cache-invalidation.bus';
import { ClientCache } from './client-cache';

/** What a write that changes a client needs of the cache, and nothing more. */
export abstract class ClientCacheInvalidation {
  /** The client's get-client answer changed: forgotten here before the write is answered, and on every instance. */
  abstract answerChanged(secretKeyDigests: string[]): void;
  /** Who may use these keys changed (disabled, enabled, deleted, rotated): everything about them is forgotten. */
  abstract keyChanged(secretKeyDigests: string[]): void;
}

@Injectable()
export class ClientCacheInvalidator implements ClientCacheInvalidation {
  constructor(
    private readonly cache: ClientCache,
    private readonly bus: CacheInvalidationBus,
    private readonly transactions: Transactions,
  ) {}

  answerChanged(secretKeyDigests: string[]): void {
    this.invalidate(secretKeyDigests, 'answer');
  }

  keyChanged(secretKeyDigests: string[]): void {
    this.invalidate(secretKeyDigests, 'key');
  }

  /**
   * Once the write is committed (inside a transaction, nothing earlier: a read in between would cache the old row again).
   * Other instances hear it within milliseconds; with the broker down they serve nothing older than a second anyway.
   */
  private invalidate(secretKeyDigests: string[], scope: InvalidationScope): void {
    this.transactions.afterCommit(() => {
      for (const digest of secretKeyDigests) {
        if (scope === 'key') this.cache.drop(digest);
        else this.cache.dropAnswer(digest);
        this.bus.publish(digest, scope);
      }
    });
  }
}
