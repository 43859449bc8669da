import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions';
import { CacheInvalidationBus, InvalidationScope } from './cache-invalidation.bus';
import { ClientCache } from './client-cache';

export abstract class ClientCacheInvalidation {
  abstract answerChanged(secretKeyDigests: string[]): void;
  abstract keyChanged(secretKeyDigests: string[]): void;
  abstract keyIssued(secretKeyDigest: string): void;
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

  // A key nobody could have asked for, dropped all the same should it be remembered as unknown. Not published: made
  // here a moment ago, no other instance can hold it, and its echo could drop what the client's first get-client filled.
  keyIssued(secretKeyDigest: string): void {
    this.transactions.afterCommit(() => this.cache.drop(secretKeyDigest));
  }

  // After commit, not before: a read in between would cache the old row again.
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
