import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { timingSafeEqual } from 'node:crypto';
import { FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { ADMIN_API_KEY_FIELD, ADMIN_API_KEY_HEADER, singleHeader } from './credential-headers';
import { invalidCredential, missingCredential } from './credential-refusals';
import { sha256 } from './digest';
import { AddressAllowance } from '../rate-limit/address-allowance';
import { RequestWithCredential } from '../rate-limit/credential';

/**
 * Admin routes: `x-api-key` must match one of ADMIN_API_KEYS, compared in constant time over SHA-256 digests. An address
 * blocked for its refusals is refused first, whatever key it sends.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly keyDigests: Buffer[];

  constructor(
    config: ConfigService<AppConfig, true>,
    private readonly addresses: AddressAllowance,
  ) {
    this.keyDigests = config.get('adminApiKeys', { infer: true }).map(sha256);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithCredential>();
    this.addresses.refuseIfBlocked(request.ip);
    const presented = singleHeader(request.headers, ADMIN_API_KEY_FIELD);
    if (presented === undefined) throw this.addresses.refuse(request.ip, missingCredential(ADMIN_API_KEY_HEADER));
    const presentedDigest = sha256(presented);
    // Every configured key is compared, so the time taken does not tell which one (or whether any) matched.
    let matched = false;
    for (const keyDigest of this.keyDigests) matched = timingSafeEqual(keyDigest, presentedDigest) || matched;
    if (!matched) throw this.addresses.refuse(request.ip, invalidCredential(ADMIN_API_KEY_HEADER));
    request.credentialDigest = presentedDigest.toString('hex');
    return true;
  }
}
