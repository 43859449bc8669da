import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail, ThrottlerRequest } from '@nestjs/throttler';
import type { IncomingHttpHeaders } from 'node:http';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { RequestWithCredential, credentialTracker } from './credential';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';
import { COUNTED_WHEN_RUN_WITH, TOO_MANY_WRITES_MESSAGE, WRITES_THROTTLER_NAME, WRITE_ROUTE } from './write-limit';

export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests, retry later';

/** The name @nestjs/throttler gives the one unnamed limit configured in RateLimitModule. */
export const THROTTLER_NAME = 'default';

type ThrottledRequest = RequestWithCredential & { headers: IncomingHttpHeaders };

/**
 * Limits each valid credential across all routes, and says when to retry. It runs after the route's authentication
 * guard (auth.decorators.ts puts it there), so only credentials found valid are ever counted: a made-up key is refused
 * before it could take a place in the throttler's map, and its address is counted instead (AddressAllowance).
 *
 * The writes throttler counts only the routes marked ClientWrite, by the request's writer (a client, whichever of its
 * keys was sent) rather than by the credential.
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

  protected override handleRequest(props: ThrottlerRequest): Promise<boolean> {
    if (props.throttler.name !== WRITES_THROTTLER_NAME) return super.handleRequest(props);
    const { context, ttl, limit, blockDuration } = props;
    const request = context.switchToHttp().getRequest<ThrottledRequest>();
    const writer = request.writer;
    if (writer === undefined || this.reflector.get<boolean | undefined>(WRITE_ROUTE, context.getHandler()) !== true) {
      return Promise.resolve(true);
    }
    const countWrite = () => {
      const key = FixedWindowThrottlerStorage.keyOf(WRITES_THROTTLER_NAME, writer);
      const record = (this.storageService as FixedWindowThrottlerStorage).hit(key, ttl, limit, blockDuration);
      if (record.isBlocked) throw new RetryLaterException(TOO_MANY_WRITES_MESSAGE, record.timeToBlockExpire);
    };
    const deferredWith = this.reflector.get<string | undefined>(COUNTED_WHEN_RUN_WITH, context.getHandler());
    if (deferredWith !== undefined && request.headers[deferredWith] !== undefined) request.countWrite = countWrite;
    else countWrite();
    return Promise.resolve(true);
  }

  // The X-RateLimit-* headers are off (a cost on every answer); only the refusal carries Retry-After.
  protected override throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new RetryLaterException(TOO_MANY_REQUESTS_MESSAGE, Math.max(1, detail.timeToBlockExpire));
  }
}
