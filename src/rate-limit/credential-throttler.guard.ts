import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModuleOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import type { IncomingHttpHeaders } from 'node:http';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { RequestWithCredential, credentialTracker } from './credential';
import { COUNTED_WHEN_RUN_WITH, WRITE_ROUTE, WriteRateLimit } from './write-limit';

export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests, retry later';

type ThrottledRequest = RequestWithCredential & { headers: IncomingHttpHeaders };

/**
 * Limits each valid credential across all routes, and says when to retry. It runs after the route's authentication
 * guard (auth.decorators.ts puts it there), so only credentials found valid are ever counted: a made-up key is refused
 * before it could take a place in the throttler's map, and its address is counted instead (AddressAllowance). A secret
 * key is counted by its guard already (SecretKeyAdmission, the same count as at the edge) and skipped here.
 *
 * On a route marked ClientWrite it also counts the request against its writer's writes limit (a client, whichever of
 * its keys was sent), apart from the throttlers so that no other route pays for it.
 */
@Injectable()
export class CredentialThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly writes: WriteRateLimit,
  ) {
    super(options, storage, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const allowed = await super.canActivate(context);
    const request = context.switchToHttp().getRequest<ThrottledRequest>();
    const writer = request.writer;
    if (writer === undefined || this.reflector.get<boolean | undefined>(WRITE_ROUTE, context.getHandler()) !== true) return allowed;
    const deferredWith = this.reflector.get<string | undefined>(COUNTED_WHEN_RUN_WITH, context.getHandler());
    if (deferredWith !== undefined && request.headers[deferredWith] !== undefined) request.countWrite = () => this.writes.count(writer);
    else this.writes.count(writer);
    return allowed;
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithCredential>();
    return Promise.resolve(request.credentialDigest === undefined || request.credentialCounted === true);
  }

  protected override getTracker(request: RequestWithCredential): Promise<string> {
    return Promise.resolve(credentialTracker(request.credentialDigest!));
  }

  // The storage files the key under the throttler's name (see FixedWindowThrottlerStorage.keyOf).
  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return tracker;
  }

  // The X-RateLimit-* headers are off (a cost on every answer); only the refusal carries Retry-After.
  protected override throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new RetryLaterException(TOO_MANY_REQUESTS_MESSAGE, Math.max(1, detail.timeToBlockExpire));
  }
}
