import { Injectable, Logger } from '@nestjs/common';
import { ScriptStatement, Transactions } from '../database/transactions';
import { CacheInvalidationBus, InvalidationScope, PROVIDER_HOSTS_LINE, lineOf } from './cache-invalidation.bus';
import { ChangeSequence } from './change-sequence';
import { ClientCache } from './client-cache';

/** Columns a write changed, by their entity's property names; 'row': the row was added or deleted. */
export type ChangedColumns = readonly string[] | 'row';

/** What a write changed: a client's row or one of its configurations (under the client's key digests), or the approved hosts. */
export type CacheChange =
  { keys: readonly string[]; client: ChangedColumns } | { keys: readonly string[]; smsConfig: ChangedColumns } | { providerHosts: true };

// The columns get-client's entry is read from, by entity property: ClientModule provides them from its read
// (get-client.repository.ts), so that client-cache imports no feature.
export abstract class GetClientColumns {
  /** The client's that the guards' lookup reads: who owns a key, and whether it may be used. */
  abstract readonly owner: ReadonlySet<string>;
  /** The client's, and a configuration's, that the answer shows. */
  abstract readonly client: ReadonlySet<string>;
  abstract readonly smsConfig: ReadonlySet<string>;
}

// The one place that decides what a write drops (scopeOf); its lines go to the change sequence (in the caller's
// transaction when there is one), then are dropped here and published once it commits.
export abstract class ClientCacheInvalidation {
  abstract changed(change: CacheChange): Promise<void>;
  // changed() as the last statements of the change's own write script (the add's single round trip).
  abstract changeStatements(change: CacheChange): ScriptStatement[];
  abstract keyIssued(secretKeyDigest: string): void;
}

/** The whole entry when the guards' lookup reads a column changed, the answer when only it shows one, else nothing. */
export function scopeOf(change: Exclude<CacheChange, { providerHosts: true }>, columns: GetClientColumns): InvalidationScope | null {
  if ('client' in change) {
    if (change.client === 'row' || change.client.some((column) => columns.owner.has(column))) return 'key';
    return change.client.some((column) => columns.client.has(column)) ? 'answer' : null;
  }
  if (change.smsConfig === 'row') return 'answer';
  return change.smsConfig.some((column) => columns.smsConfig.has(column)) ? 'answer' : null;
}

interface Drop {
  lines: string[];
  dropped: () => void;
}

@Injectable()
export class ClientCacheInvalidator implements ClientCacheInvalidation {
  private readonly logger = new Logger('CacheInvalidation');

  constructor(
    private readonly cache: ClientCache,
    private readonly bus: CacheInvalidationBus,
    private readonly sequence: ChangeSequence,
    private readonly transactions: Transactions,
    private readonly columns: GetClientColumns,
  ) {}

  async changed(change: CacheChange): Promise<void> {
    const drop = this.dropOf(change);
    if (drop === undefined) return;
    await this.sequenced(drop.lines);
    this.transactions.afterCommit(drop.dropped);
  }

  changeStatements(change: CacheChange): ScriptStatement[] {
    const drop = this.dropOf(change);
    return drop === undefined ? [] : [{ ...this.sequence.appendStatement(drop.lines), afterCommit: drop.dropped }];
  }

  // A key nobody could have asked for, dropped all the same should it be remembered as unknown. Not published: made
  // here a moment ago, no other instance can hold it, and its echo could drop what the client's first get-client filled.
  keyIssued(secretKeyDigest: string): void {
    this.transactions.afterCommit(() => this.cache.drop(secretKeyDigest));
  }

  // After commit, not before: a read in between would cache the old row again. The approval list of this instance is
  // read again by the writer of the hosts.
  private dropOf(change: CacheChange): Drop | undefined {
    if ('providerHosts' in change) return { lines: [PROVIDER_HOSTS_LINE], dropped: () => this.bus.publishProviderHostsChanged() };
    const scope = scopeOf(change, this.columns);
    if (scope === null) return undefined;
    const digests = change.keys;
    return { lines: digests.map((digest) => lineOf(digest, scope)), dropped: () => this.dropped(digests, scope) };
  }

  private dropped(secretKeyDigests: readonly string[], scope: InvalidationScope): void {
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
