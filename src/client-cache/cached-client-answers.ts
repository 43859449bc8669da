import { Injectable } from '@nestjs/common';
import { ClientCache, answerOf } from './client-cache';
import { clientCacheHits } from './client-cache.metrics';

/** The get-client fast path the edge calls: an answer when the key's client is cached, synchronously. */
@Injectable()
export class CachedClientAnswers {
  constructor(private readonly cache: ClientCache) {}

  /** undefined when not cached, or cached as a key no client has: the request then takes the full way, which answers it. */
  answerFor(secretKey: string, secretKeyDigest: string): string | undefined {
    const cached = this.cache.lookup(secretKeyDigest);
    // An unknown key is not counted here: the full way counts it, and refuses a disabled client's key.
    if (!cached?.found || !cached.client.isActive) return undefined;
    clientCacheHits.inc({ kind: 'found' });
    return answerOf(cached.client, secretKey);
  }
}
