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

@Injectable()
export class SecretKeyGuard implements CanActivate {
  constructor(
    @Inject(CLIENT_LOOKUP) private readonly clients: ClientLookup,
    protected readonly admission: SecretKeyAdmission,
    private readonly addresses: AddressAllowance,
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
    request.client = client;
    request.actor = clientActor(client.id);
    request.credentialDigest = client.secretKeyDigest;
    request.writer = request.actor;
    const retryAfter = this.admitted(client.secretKeyDigest, request.ip);
    if (retryAfter > 0) throw new RetryLaterException(TOO_MANY_REQUESTS_MESSAGE, retryAfter);
    request.credentialCounted = true;
    return true;
  }

  // The seconds to wait once the key is past its limit, else 0.
  protected admitted(secretKeyDigest: string, ip: string): number {
    return this.admission.admit(secretKeyDigest, ip);
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

  // The address is the dispatcher's: the key's last address stays where the key itself was last used from.
  protected override admitted(secretKeyDigest: string): number {
    return this.admission.admitRelayed(secretKeyDigest);
  }
}

@Injectable()
export class GetClientKeyGuard extends SecretKeyGuard {
  protected override unknownKeyRefusal(): HttpException {
    return new UnknownSecretKeyException();
  }
}
