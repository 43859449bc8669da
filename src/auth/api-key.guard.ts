import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../config/app-config';
import { AddressAllowance } from '../rate-limit/address-allowance';
import { RequestWithCredential } from '../rate-limit/credential';
import { RequestWithActor, adminActor, dispatcherActor } from './actor';
import { ADMIN_API_KEY_FIELD, ADMIN_API_KEY_HEADER, singleHeader } from './credential-headers';
import { invalidCredential, missingCredential } from './credential-refusals';
import { sha256 } from './digest';
import { KeySet } from './key-set';

type KeyedRequest = RequestWithActor & RequestWithCredential;

function presentedKeyDigest(context: ExecutionContext, addresses: AddressAllowance, isKnown: (digest: Buffer) => boolean): Buffer {
  const request = context.switchToHttp().getRequest<KeyedRequest>();
  addresses.refuseIfBlocked(request.ip);
  const presented = singleHeader(request.headers, ADMIN_API_KEY_FIELD);
  if (presented === undefined) throw addresses.refuse(request.ip, missingCredential(ADMIN_API_KEY_HEADER));
  const digest = sha256(presented);
  if (!isKnown(digest)) throw addresses.refuse(request.ip, invalidCredential(ADMIN_API_KEY_HEADER));
  request.credentialDigest = digest.toString('hex');
  return digest;
}

@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly adminKeys: KeySet;

  constructor(
    config: ConfigService<AppConfig, true>,
    private readonly addresses: AddressAllowance,
  ) {
    this.adminKeys = new KeySet(config.get('adminApiKeys', { infer: true }));
  }

  canActivate(context: ExecutionContext): boolean {
    const digest = presentedKeyDigest(context, this.addresses, (presented) => this.adminKeys.has(presented));
    context.switchToHttp().getRequest<KeyedRequest>().actor = adminActor(digest.toString('hex'));
    return true;
  }
}

// An admin key is known but not allowed (403); with no dispatcher configured, every key is refused (401).
@Injectable()
export class DispatcherKeyGuard implements CanActivate {
  private readonly adminKeys: KeySet;
  private readonly dispatcherKeys: KeySet;

  constructor(
    config: ConfigService<AppConfig, true>,
    private readonly addresses: AddressAllowance,
  ) {
    this.adminKeys = new KeySet(config.get('adminApiKeys', { infer: true }));
    this.dispatcherKeys = new KeySet(config.get('dispatcherApiKeys', { infer: true }));
  }

  canActivate(context: ExecutionContext): boolean {
    let isAdminKey = false;
    const digest = presentedKeyDigest(context, this.addresses, (presented) => {
      if (this.dispatcherKeys.has(presented)) return true;
      isAdminKey = !this.dispatcherKeys.isEmpty && this.adminKeys.has(presented);
      return isAdminKey;
    });
    if (isAdminKey) throw new ForbiddenException(`x-api-key is an admin key; only a dispatcher key may ${this.dispatcherTask}`);
    context.switchToHttp().getRequest<KeyedRequest>().actor = dispatcherActor(digest.toString('hex'));
    return true;
  }

  protected readonly dispatcherTask: string = 'resolve credentials';
}

@Injectable()
export class DispatchKeyGuard extends DispatcherKeyGuard {
  protected override readonly dispatcherTask = 'dispatch';
}
