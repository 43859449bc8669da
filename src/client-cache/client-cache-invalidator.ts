import { Injectable } from '@nestjs/common';
import { CacheInvalidationBus } from './cache-invalidation.bus';
import { ClientCache } from './client-cache';

/** What a write that changes a client's get-client answer needs of the cache, and nothing more. */
export abstract class ClientCacheInvalidation {
  /** Forgets the answer of the client with this key digest, here before the write is answered and on every instance. */
  abstract invalidate(secretKeyDigest: string): void;
}

@Injectable()
export class ClientCacheInvalidator implements ClientCacheInvalidation {
  constructor(
    private readonly cache: ClientCache,
    private readonly bus: CacheInvalidationBus,
  ) {}

  /** Other instances hear it within milliseconds; with the broker down they serve nothing older than a second anyway. */
  invalidate(secretKeyDigest: string): void {
    this.cache.drop(secretKeyDigest);
    this.bus.publish(secretKeyDigest);
  }
}
