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

// Runs after the authentication guard (auth.decorators.ts), so only valid credentials take a place in the map.
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
