import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import { FastifyRequest } from 'fastify';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { rateLimitTracker } from './credential';

export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests, retry later';

/** The name @nestjs/throttler gives the one unnamed limit configured in RateLimitModule. */
export const THROTTLER_NAME = 'default';

/** Limits each credential (or, without one, each address) across all routes, and says when to retry. */
@Injectable()
export class CredentialThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(request: FastifyRequest): Promise<string> {
    return Promise.resolve(rateLimitTracker(request));
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
