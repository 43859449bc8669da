import { Injectable } from '@nestjs/common';
import { ChangeOrigin } from '../auth/actor';
import { AuthenticatedClient, ClientLookup } from '../auth/client-lookup';
import { sha256Hex } from '../auth/digest';
import { generateSecretKey, isWellFormedSecretKey } from '../auth/secret-key';
import { inFieldOrder } from '../common/answer-fields';
import { CachedClient, ClientCache, KeyOwner, answerOf } from '../client-cache/client-cache';
import { clientCacheHits, clientCacheMisses } from '../client-cache/client-cache.metrics';
import { toCachedClient } from './client-answer';
import { ClientAnswers } from './client-answers';
import { ClientRepository } from './client.repository';
import { AddClientDto } from './dto/add-client.dto';
import { CLIENT_FIELDS, ClientDto, ClientResponseDto } from './dto/client-response.dto';

@Injectable()
export class ClientService implements ClientLookup, ClientAnswers {
  /** The database reads under way, by key digest. */
  private readonly loading = new Map<string, { token: number; client: Promise<CachedClient | null> }>();

  constructor(
    private readonly clients: ClientRepository,
    private readonly cache: ClientCache,
  ) {}

  /** Registers a client under a new secret key, kept only as its digest; the key is in this answer and nowhere else. */
  /** Records a replay of add client's kept answer (Idempotency-Key) for the client that holds its key (null: none now). */
  async recordAddReplay(answer: ClientResponseDto, origin: ChangeOrigin): Promise<void> {
    const clientId = await this.clients.clientIdOfKey(sha256Hex(answer.results.secretKey));
    await this.clients.recordSecretKeyReplay(clientId, origin);
  }

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
    const client = await this.lookUp(secretKey);
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
    clientCacheMisses.inc();
    const client = await this.load(secretKeyDigest);
    return client?.isActive ? answerOf(client, secretKey) : null;
  }

  /** The client owning this key, as the guards need it; null when no client has it. */
  async authenticate(secretKey: string): Promise<AuthenticatedClient | null> {
    if (!isWellFormedSecretKey(secretKey)) return null;
    const secretKeyDigest = sha256Hex(secretKey);
    // Known even right after a configuration was added, which drops the client's answer but not who owns the key.
    const owner = this.cache.lookupOwner(secretKeyDigest) ?? (await this.lookUp(secretKey));
    return owner === null ? null : authenticatedClient(owner, secretKeyDigest);
  }

  /** From the cache, else from the database, filling the cache (an unknown key is remembered as unknown). */
  private async lookUp(secretKey: string): Promise<CachedClient | null> {
    if (!isWellFormedSecretKey(secretKey)) return null;
    const digest = sha256Hex(secretKey);
    const cached = this.cache.lookup(digest);
    if (cached !== undefined) {
      clientCacheHits.inc({ kind: cached.found ? 'found' : 'unknown' });
      return cached.found ? cached.client : null;
    }
    clientCacheMisses.inc();
    return this.load(digest);
  }

  /**
   * One query per key at a time: the requests that miss while it runs share its answer, so a busy key whose entry was
   * just invalidated costs the database one read, not one per caller. A request never joins a read that started
   * before the key last changed: it could predate a write already answered.
   */
  private load(digest: string): Promise<CachedClient | null> {
    const underWay = this.loading.get(digest);
    if (underWay !== undefined && this.cache.unchangedSince(digest, underWay.token)) return underWay.client;
    const token = this.cache.readToken();
    const read = { token, client: this.read(digest, token) };
    this.loading.set(digest, read);
    const settled = () => {
      if (this.loading.get(digest) === read) this.loading.delete(digest);
    };
    read.client.then(settled, settled);
    return read.client;
  }

  private async read(digest: string, token: number): Promise<CachedClient | null> {
    const found = await this.clients.findWithSmsConfigsByDigest(digest);
    const client = found === null ? null : toCachedClient(found);
    this.cache.store(digest, client, token);
    return client;
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
