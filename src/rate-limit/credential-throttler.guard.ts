import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { RequestWithCredential, credentialTracker } from './credential';

export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests, retry later';

/** The name @nestjs/throttler gives the one unnamed limit configured in RateLimitModule. */
export const THROTTLER_NAME = 'default';

/**
 * Limits each valid credential across all routes, and says when to retry. It runs after the route's authentication
 * guard (auth.decorators.ts puts it there), so only credentials found valid are ever counted: a made-up key is refused
 * before it could take a place in the throttler's map, and its address is counted instead (AddressAllowance).
 */
@Injectable()
export class CredentialThrottlerGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(context.switchToHttp().getRequest<RequestWithCredential>().credentialDigest === undefined);
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
