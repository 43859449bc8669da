import { Injectable } from '@nestjs/common';
import { ChangeOrigin } from '../auth/actor';
import { AuthenticatedClient, ClientLookup } from '../auth/client-lookup';
import { sha256Hex } from '../auth/digest';
import { generateSecretKey, isWellFormedSecretKey } from '../auth/secret-key';
import { inFieldOrder } from '../common/answer-fields';
import { CachedClient, ClientCache, KeyOwner, answerOf } from '../client-cache/client-cache';
import { clientCacheHits } from '../client-cache/client-cache.metrics';
import { toCachedClient } from './client-answer';
import { ClientRepository } from './client.repository';
import { AddClientDto } from './dto/add-client.dto';
import { CLIENT_FIELDS, ClientDto, ClientResponseDto } from './dto/client-response.dto';

@Injectable()
export class ClientService implements ClientLookup {
  constructor(
    private readonly clients: ClientRepository,
    private readonly cache: ClientCache,
  ) {}

  /** How the cache fills a miss: the key's client and configurations, serialized once (client-answer.ts). */
  private readonly read = async (digest: string): Promise<CachedClient | null> => {
    const found = await this.clients.findWithSmsConfigsByDigest(digest);
    return found === null ? null : toCachedClient(found);
  };

  /** Records a replay of add client's kept answer (Idempotency-Key) for the client that holds its key (null: none now). */
  async recordAddReplay(answer: ClientResponseDto, origin: ChangeOrigin): Promise<void> {
    const clientId = await this.clients.clientIdOfKey(sha256Hex(answer.results.secretKey));
    await this.clients.recordSecretKeyReplay(clientId, origin);
  }

  /** Registers a client under a new secret key, kept only as its digest; the key is in this answer and nowhere else. */
  async create(request: AddClientDto, origin: ChangeOrigin): Promise<ClientDto> {
    const secretKey = generateSecretKey();
    const secretKeyDigest = sha256Hex(secretKey);
    const client = {
      appName: request.appName,
      appDescription: request.appDescription ?? null,
      appUrl: request.appUrl,
      preferredSmsGateway: request.preferredSmsGateway ?? null,
      isHost: request.isHost,
    };
    await this.clients.insert({ ...client, secretKeyDigest }, origin);
    // A key nobody could have asked for before; dropped all the same should it be remembered as unknown.
    this.cache.drop(secretKeyDigest);
    return inFieldOrder(CLIENT_FIELDS, {
      ...client,
      secretKey,
      preferredEmailGateway: null,
      preferredPushNotificationGateway: null,
      smsConfig: null,
    });
  }

  /** The serialized get-client answer for this key (the key echoed), or null when no client has it. */
  async getAnswer(secretKey: string): Promise<string | null> {
    if (!isWellFormedSecretKey(secretKey)) return null;
    const client = await this.cache.getOrLoad(sha256Hex(secretKey), this.read);
    return client === null ? null : answerOf(client, secretKey);
  }

  /**
   * The edge's answer from the cache, synchronously (a well-formed key and its digest): the answer when the key's
   * client is cached and enabled; null when the cache knows the key yet the full way must answer it (no client has
   * it, or the client is disabled); undefined when the cache does not know it (loadAnswer then asks the database).
   */
  cachedAnswer(secretKey: string, secretKeyDigest: string): string | null | undefined {
    const cached = this.cache.lookup(secretKeyDigest);
    if (cached === undefined) return undefined;
    // Refusals are counted by the full way, which answers them.
    if (!cached.found || !cached.client.isActive) return null;
    clientCacheHits.inc({ kind: 'found' });
    return answerOf(cached.client, secretKey);
  }

  /** cachedAnswer's miss: the answer from the database, filling the cache; null when the full way must answer. */
  async loadAnswer(secretKey: string, secretKeyDigest: string): Promise<string | null> {
    const client = await this.cache.load(secretKeyDigest, this.read);
    return client?.isActive ? answerOf(client, secretKey) : null;
  }

  /** The client owning this key, as the guards need it; null when no client has it. */
  async authenticate(secretKey: string): Promise<AuthenticatedClient | null> {
    if (!isWellFormedSecretKey(secretKey)) return null;
    const secretKeyDigest = sha256Hex(secretKey);
    // Known even right after a configuration was added, which drops the client's answer but not who owns the key.
    const owner = this.cache.lookupOwner(secretKeyDigest) ?? (await this.cache.getOrLoad(secretKeyDigest, this.read));
    return owner === null ? null : authenticatedClient(owner, secretKeyDigest);
  }
}

function authenticatedClient(owner: KeyOwner, secretKeyDigest: string): AuthenticatedClient {
  return {
    id: owner.clientId,
    secretKeyDigest,
    isActive: owner.isActive,
    isPreviousKey: owner.isPreviousKey,
    keyDigests: owner.keyDigests,
  };
}
