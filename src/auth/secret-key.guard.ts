import { CanActivate, ExecutionContext, ForbiddenException, HttpException, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { DATABASE_TIMEOUT_MS, withTimeout } from '../common/errors/unavailable';
import { AddressAllowance } from '../rate-limit/address-allowance';
import { RequestWithCredential } from '../rate-limit/credential';
import { TOO_MANY_REQUESTS_MESSAGE } from '../rate-limit/credential-throttler.guard';
import { RequestWithActor, clientActor } from './actor';
import { isAllowedSource } from './allowed-sources';
import { AuthenticatedClient, CLIENT_LOOKUP, ClientLookup, RequestWithClient } from './client-lookup';
import { SECRET_KEY_HEADER } from './credential-headers';
import { ClientDisabledException, UnknownSecretKeyException, invalidCredential, missingCredential } from './credential-refusals';
import { KeyRefusal, countKeyRefusal } from './key-refusals.metrics';
import { REQUIRED_SCOPE, RETRIED_BY_PREVIOUS_KEY, RequiredScope, missingScopeMessage, reaches } from './key-scopes';
import { KeyShape, shapeOf } from './scoped-key';
import { KeyNotAdmitted, SecretKeyAdmission } from './secret-key-admission';

export const NOT_FROM_THIS_ADDRESS = 'secretKey is not allowed from this address';

@Injectable()
export class SecretKeyGuard implements CanActivate {
  private readonly logger = new Logger('SecretKey');

  constructor(
    @Inject(CLIENT_LOOKUP) private readonly clients: ClientLookup,
    protected readonly admission: SecretKeyAdmission,
    private readonly addresses: AddressAllowance,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithClient & RequestWithCredential & RequestWithActor>();
    const secretKey = this.admission.presentedKey(request.ip, request.headers);
    if (secretKey === KeyNotAdmitted.AddressBlocked) throw this.addresses.blockedRefusal(request.ip);
    if (secretKey === KeyNotAdmitted.Missing) throw this.counted(request.ip, missingCredential(SECRET_KEY_HEADER));
    if (secretKey === KeyNotAdmitted.Malformed) throw this.counted(request.ip, this.unknownKeyRefusal());
    // The request deadline replies to the caller; this bounds the lookup itself, so a hung database frees the guard too.
    const client = await withTimeout(this.clients.authenticate(secretKey), DATABASE_TIMEOUT_MS, 'database');
    if (client === null) throw this.counted(request.ip, this.unknownKeyRefusal());
    if (!client.isActive) throw new ClientDisabledException();
    if (!this.isAllowedSource(client, request.ip)) {
      throw this.counted(request.ip, this.keyRefused(client, 'key-source', new ForbiddenException(NOT_FROM_THIS_ADDRESS)));
    }
    const required = this.reflector.get<RequiredScope>(REQUIRED_SCOPE, context.getHandler());
    if (!reaches(client, required) && !this.mayRetryRotation(context, client, request)) {
      throw this.keyRefused(client, 'key-scope', new ForbiddenException(missingScopeMessage(required)));
    }
    request.client = client;
    request.actor = clientActor(client.id, client.scopedKey?.keyId);
    request.credentialDigest = client.secretKeyDigest;
    request.writer = clientActor(client.id);
    const retryAfter = this.admitted(client.secretKeyDigest, shapeOf(secretKey), request.ip);
    if (retryAfter > 0) throw new RetryLaterException(TOO_MANY_REQUESTS_MESSAGE, retryAfter);
    request.credentialCounted = true;
    return true;
  }

  protected isAllowedSource({ scopedKey }: AuthenticatedClient, ip: string): boolean {
    return isAllowedSource(scopedKey, ip);
  }

  // Named, not imported: idempotency/ sits above auth/.
  private mayRetryRotation(context: ExecutionContext, client: AuthenticatedClient, request: RequestWithClient): boolean {
    const retried = this.reflector.get<boolean | undefined>(RETRIED_BY_PREVIOUS_KEY, context.getHandler()) === true;
    return retried && client.isPreviousKey && client.scopedKey === null && request.headers['idempotency-key'] !== undefined;
  }

  private keyRefused(client: AuthenticatedClient, reason: KeyRefusal, refusal: ForbiddenException): ForbiddenException {
    countKeyRefusal(reason);
    this.logger.warn(`Key ${client.scopedKey?.keyId ?? 'root'} of client ${client.id} refused: ${refusal.message}`);
    return refusal;
  }

  // The seconds to wait once the key is past its limit, else 0.
  protected admitted(secretKeyDigest: string, shape: KeyShape, ip: string): number {
    return this.admission.admit(secretKeyDigest, shape, ip);
  }

  protected unknownKeyRefusal(): HttpException {
    return invalidCredential(SECRET_KEY_HEADER);
  }

  protected counted(ip: string, refusal: HttpException): HttpException {
    return this.addresses.refuse(ip, refusal);
  }
}

// Not counted against the address: one client's expired key would otherwise block the dispatcher, and every client with it.
@Injectable()
export class RelayedSecretKeyGuard extends SecretKeyGuard {
  protected override counted(_ip: string, refusal: HttpException): HttpException {
    return refusal;
  }

  // The address is the dispatcher's: neither checked against the key's sources nor noted as its last.
  protected override isAllowedSource(): boolean {
    return true;
  }

  protected override admitted(secretKeyDigest: string, shape: KeyShape): number {
    return this.admission.admitRelayed(secretKeyDigest, shape);
  }
}

@Injectable()
export class GetClientKeyGuard extends SecretKeyGuard {
  protected override unknownKeyRefusal(): HttpException {
    return new UnknownSecretKeyException();
  }
}
