import { Injectable, Logger } from '@nestjs/common';
import { ScriptStatement, Transactions } from '../database/transactions';
import { CacheInvalidationBus, InvalidationScope, PROVIDER_HOSTS_LINE, lineOf } from './cache-invalidation.bus';
import { ChangeSequence } from './change-sequence';
import { ClientCache } from './client-cache';

// Each change's lines are written to the change sequence (in the caller's transaction when there is one), then
// dropped here and published once it commits.
export abstract class ClientCacheInvalidation {
  abstract answerChanged(secretKeyDigests: string[]): Promise<void>;
  // answerChanged() as the last statement of the change's own write script (the add's single round trip).
  abstract answerChangeStatement(secretKeyDigests: string[]): ScriptStatement;
  abstract keyChanged(secretKeyDigests: string[]): Promise<void>;
  abstract keyIssued(secretKeyDigest: string): void;
  abstract providerHostsChanged(): Promise<void>;
}

@Injectable()
export class ClientCacheInvalidator implements ClientCacheInvalidation {
  private readonly logger = new Logger('CacheInvalidation');

  constructor(
    private readonly cache: ClientCache,
    private readonly bus: CacheInvalidationBus,
    private readonly sequence: ChangeSequence,
    private readonly transactions: Transactions,
  ) {}

  answerChanged(secretKeyDigests: string[]): Promise<void> {
    return this.invalidate(secretKeyDigests, 'answer');
  }

  keyChanged(secretKeyDigests: string[]): Promise<void> {
    return this.invalidate(secretKeyDigests, 'key');
  }

  answerChangeStatement(secretKeyDigests: string[]): ScriptStatement {
    const lines = secretKeyDigests.map((digest) => lineOf(digest, 'answer'));
    return { ...this.sequence.appendStatement(lines), afterCommit: () => this.dropped(secretKeyDigests, 'answer') };
  }

  // A key nobody could have asked for, dropped all the same should it be remembered as unknown. Not published: made
  // here a moment ago, no other instance can hold it, and its echo could drop what the client's first get-client filled.
  keyIssued(secretKeyDigest: string): void {
    this.transactions.afterCommit(() => this.cache.drop(secretKeyDigest));
  }

  // The approval list of this instance is read again by its caller.
  async providerHostsChanged(): Promise<void> {
    await this.sequenced([PROVIDER_HOSTS_LINE]);
    this.transactions.afterCommit(() => this.bus.publishProviderHostsChanged());
  }

  // After commit, not before: a read in between would cache the old row again.
  private async invalidate(secretKeyDigests: string[], scope: InvalidationScope): Promise<void> {
    await this.sequenced(secretKeyDigests.map((digest) => lineOf(digest, scope)));
    this.transactions.afterCommit(() => this.dropped(secretKeyDigests, scope));
  }

  private dropped(secretKeyDigests: string[], scope: InvalidationScope): void {
    for (const digest of secretKeyDigests) {
      if (scope === 'key') this.cache.drop(digest);
      else this.cache.dropAnswer(digest);
      this.bus.publish(digest, scope);
    }
  }

  // In a transaction the lines are its last statement, and commit with the change or the change fails. Outside one the
  // change has committed already: failing its answer would invite a retry, so a line not written leaves the bus and the
  // cache's age limits.
  private async sequenced(lines: string[]): Promise<void> {
    if (this.transactions.active) return this.transactions.endWith(this.sequence.appendStatement(lines));
    await this.sequence
      .append(lines)
      .catch((error: Error) => this.logger.warn(`Change not written to the change sequence: ${error.message}`));
  }
}
