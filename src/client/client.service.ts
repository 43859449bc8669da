import { Injectable } from '@nestjs/common';
import { ChangeOrigin } from '../auth/actor';
import { AuthenticatedClient, ClientLookup } from '../auth/client-lookup';
import { sha256Hex } from '../auth/digest';
import { generateSecretKey, isWellFormedSecretKey } from '../auth/secret-key';
import { CachedClient, ClientCache, KeyOwner, answerOf } from '../client-cache/client-cache';
import { clientCacheHits, clientCacheMisses } from '../client-cache/client-cache.metrics';
import { toCachedClient } from './client-answer';
import { ClientRepository } from './client.repository';
import { AddClientDto } from './dto/add-client.dto';
import { ClientDto } from './dto/client-response.dto';

@Injectable()
export class ClientService implements ClientLookup {
  constructor(
    private readonly clients: ClientRepository,
    private readonly cache: ClientCache,
  ) {}

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
    return {
      appDescription: client.appDescription,
      appUrl: client.appUrl,
      secretKey,
      preferredSmsGateway: client.preferredSmsGateway,
      preferredEmailGateway: null,
      preferredPushNotificationGateway: null,
      isHost: client.isHost,
      smsConfig: null,
    };
  }

  /** The serialized get-client answer for this key (the key echoed), or null when no client has it. */
  async getAnswer(secretKey: string): Promise<string | null> {
    const client = await this.lookUp(secretKey);
    return client === null ? null : answerOf(client, secretKey);
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
    const token = this.cache.readToken();
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
