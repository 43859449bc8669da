import { Injectable } from '@nestjs/common';
import { AuthenticatedClient, ClientLookup } from '../auth/client-lookup';
import { sha256Hex } from '../auth/digest';
import { isAllowedSource } from '../auth/allowed-sources';
import { reaches } from '../auth/key-scopes';
import { KeyShape, shapeOf } from '../auth/scoped-key';
import { isWellFormedSecretKey } from '../auth/secret-key';
import { ClientCache, ClientRead, KeyOwner, answerOf } from '../client-cache/client-cache';
import { toCachedClient } from './client-answer';
import { GetClientRepository } from './get-client.repository';

// get-client's answer and the guards' lookup of a key, both through the cache; the admin's writes are ClientAdminService's.
@Injectable()
export class ClientService implements ClientLookup {
  constructor(
    private readonly getClientReads: GetClientRepository,
    private readonly cache: ClientCache,
  ) {}

  // A key's shape says which keys its digest is looked up among.
  private readonly reads: Record<KeyShape, ClientRead> = { root: this.readerOf('root'), scoped: this.readerOf('scoped') };

  private readerOf(shape: KeyShape): ClientRead {
    return async (digest) => {
      const found = await this.getClientReads.findWithSmsConfigsByDigest(digest, shape);
      return found === null ? null : toCachedClient(found);
    };
  }

  private readOf(secretKey: string): ClientRead {
    return this.reads[shapeOf(secretKey)];
  }

  async getAnswer(secretKey: string): Promise<string | null> {
    if (!isWellFormedSecretKey(secretKey)) return null;
    const client = await this.cache.getOrLoad(sha256Hex(secretKey), this.readOf(secretKey));
    return client === null ? null : answerOf(client, secretKey);
  }

  // null: the cache knows the key, but ClientController must refuse it; undefined: the cache does not know it.
  cachedAnswer(secretKey: string, secretKeyDigest: string, ip: string): string | null | undefined {
    const client = this.cache.lookupEnabled(secretKeyDigest);
    if (!client) return client;
    return isServedAtEdge(client, ip) ? answerOf(client, secretKey) : null;
  }

  async loadAnswer(secretKey: string, secretKeyDigest: string, ip: string): Promise<string | null> {
    const client = await this.cache.load(secretKeyDigest, this.readOf(secretKey));
    return client?.isActive && isServedAtEdge(client, ip) ? answerOf(client, secretKey) : null;
  }

  async authenticate(secretKey: string): Promise<AuthenticatedClient | null> {
    if (!isWellFormedSecretKey(secretKey)) return null;
    const secretKeyDigest = sha256Hex(secretKey);
    // Known even right after a configuration was added, which drops the client's answer but not who owns the key.
    const owner = this.cache.lookupOwner(secretKeyDigest) ?? (await this.cache.getOrLoad(secretKeyDigest, this.readOf(secretKey)));
    return owner === null ? null : authenticatedClient(owner, secretKeyDigest);
  }
}

// A scoped key without client:read, or used from outside its sources, is refused by Nest's route in the envelope.
function isServedAtEdge(owner: KeyOwner, ip: string): boolean {
  return reaches(owner, 'client:read') && isAllowedSource(owner.scopedKey, ip);
}

function authenticatedClient(owner: KeyOwner, secretKeyDigest: string): AuthenticatedClient {
  return {
    id: owner.clientId,
    secretKeyDigest,
    isActive: owner.isActive,
    isPreviousKey: owner.isPreviousKey,
    scopedKey: owner.scopedKey,
    keyDigests: owner.keyDigests,
  };
}
