import { Inject, Injectable, SetMetadata } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerStorage } from '@nestjs/throttler';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { AppConfig, RateLimitConfig } from '../config/app-config';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';

/** Where the throttler's storage counts a client's changing requests, all its keys together. */
export const WRITES_THROTTLER_NAME = 'writes';

export const TOO_MANY_WRITES_MESSAGE = 'Too many changes for this client, retry later';

export const WRITE_ROUTE = 'rate-limit:write-route';
export const COUNTED_WHEN_RUN_WITH = 'rate-limit:counted-when-run-with';

/**
 * The route changes something: the keys of one client together may make RATE_LIMIT_WRITES_PER_CREDENTIAL such requests
 * a window (the guard that authenticates them names the client as the request's writer).
 */
export const ClientWrite = () => SetMetadata(WRITE_ROUTE, true);

/**
 * On this route a request carrying `header` may be answered again rather than run: it is counted as a write only when
 * it runs, by whoever runs it calling request.countWrite.
 */
export const CountedWhenRunWith = (header: string) => SetMetadata(COUNTED_WHEN_RUN_WITH, header.toLowerCase());

/** The writes limit, counted in the throttler's own storage beside the per-credential limit. */
@Injectable()
export class WriteRateLimit {
  private readonly limits: RateLimitConfig;

  constructor(
    @Inject(ThrottlerStorage) private readonly storage: FixedWindowThrottlerStorage,
    config: ConfigService<AppConfig, true>,
  ) {
    this.limits = config.get('rateLimit', { infer: true });
  }

  /** Counts one write of the writer; past the limit, the 429 that says when to retry. */
  count(writer: string): void {
    const { windowMs, writesPerCredential } = this.limits;
    const key = FixedWindowThrottlerStorage.keyOf(WRITES_THROTTLER_NAME, writer);
    const record = this.storage.hit(key, windowMs, writesPerCredential, windowMs);
    if (record.isBlocked) throw new RetryLaterException(TOO_MANY_WRITES_MESSAGE, record.timeToBlockExpire);
  }
}
