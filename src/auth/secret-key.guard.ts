import { CanActivate, ExecutionContext, HttpException, Inject, Injectable } from '@nestjs/common';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { DATABASE_TIMEOUT_MS, withTimeout } from '../common/errors/unavailable';
import { AddressAllowance } from '../rate-limit/address-allowance';
import { RequestWithCredential } from '../rate-limit/credential';
import { TOO_MANY_REQUESTS_MESSAGE } from '../rate-limit/credential-throttler.guard';
import { RequestWithActor, clientActor } from './actor';
import { CLIENT_LOOKUP, ClientLookup, RequestWithClient } from './client-lookup';
import { SECRET_KEY_HEADER } from './credential-headers';
import { ClientDisabledException, UnknownSecretKeyException, invalidCredential, missingCredential } from './credential-refusals';
import { KeyNotAdmitted, SecretKeyAdmission } from './secret-key-admission';

/**
 * secretKey routes: the `secretKey` header must belong to a client; that client becomes the request's owner. Admitted
 * as at the edge (SecretKeyAdmission): an address blocked for its refusals is refused first, whatever key it sends; a
 * missing or malformed key is refused without a lookup; a disabled client's key is refused (403) without counting as
 * a wrong key; a key over its limit is refused (429) once its use is noted.
 */
@Injectable()
export class SecretKeyGuard implements CanActivate {
  constructor(
    @Inject(CLIENT_LOOKUP) private readonly clients: ClientLookup,
    private readonly admission: SecretKeyAdmission,
    private readonly addresses: AddressAllowance,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithClient & RequestWithCredential & RequestWithActor>();
    const secretKey = this.admission.presentedKey(request.ip, request.headers);
    if (secretKey === KeyNotAdmitted.AddressBlocked) throw this.addresses.blockedRefusal(request.ip);
    if (secretKey === KeyNotAdmitted.Missing) throw this.counted(request.ip, missingCredential(SECRET_KEY_HEADER));
    if (secretKey === KeyNotAdmitted.Malformed) throw this.counted(request.ip, this.unknownKeyRefusal());
    // The request deadline answers the caller; this bounds the lookup itself, so a hung database frees the guard too.
    const client = await withTimeout(this.clients.authenticate(secretKey), DATABASE_TIMEOUT_MS, 'database');
    if (client === null) throw this.counted(request.ip, this.unknownKeyRefusal());
    if (!client.isActive) throw new ClientDisabledException();
    request.client = client;
    request.actor = clientActor(client.id);
    request.credentialDigest = client.secretKeyDigest;
    request.writer = request.actor;
    const retryAfter = this.admission.admit(client.secretKeyDigest);
    if (retryAfter > 0) throw new RetryLaterException(TOO_MANY_REQUESTS_MESSAGE, retryAfter);
    request.credentialCounted = true;
    return true;
  }

  /** How a key no client has is refused. */
  protected unknownKeyRefusal(): HttpException {
    return invalidCredential(SECRET_KEY_HEADER);
  }

  /** A missing or unknown key, counted against the address that sent it (past its limit, the 429 instead). */
  protected counted(ip: string, refusal: HttpException): HttpException {
    return this.addresses.refuse(ip, refusal);
  }
}

/**
 * Dispatch routing: a client's key relayed by a dispatcher whose own key has just been found valid. Its refusals are
 * answered alike but not counted against the address: one client's expired key would otherwise block the dispatcher,
 * and every client with it. A refused dispatcher key is counted, by the guard before this one.
 */
@Injectable()
export class RelayedSecretKeyGuard extends SecretKeyGuard {
  protected override counted(_ip: string, refusal: HttpException): HttpException {
    return refusal;
  }
}

/** get-client: the same check, with the interface's 404 for a key no client has. */
@Injectable()
export class GetClientKeyGuard extends SecretKeyGuard {
  protected override unknownKeyRefusal(): HttpException {
    return new UnknownSecretKeyException();
  }
}
