import { Inject, Injectable, SetMetadata } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerStorage } from '@nestjs/throttler';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { AppConfig, RateLimitConfig } from '../config/app-config';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';

export const WRITES_THROTTLER_NAME = 'writes';

export const TOO_MANY_WRITES_MESSAGE = 'Too many changes for this client, retry later';

export const WRITE_ROUTE = 'rate-limit:write-route';
export const COUNTED_WHEN_RUN_WITH = 'rate-limit:counted-when-run-with';

// The guard that authenticates the request names its client as the writer.
export const ClientWrite = () => SetMetadata(WRITE_ROUTE, true);

// A replayed answer is not a write: whoever runs the request calls request.countWrite.
export const CountedWhenRunWith = (header: string) => SetMetadata(COUNTED_WHEN_RUN_WITH, header.toLowerCase());

@Injectable()
export class WriteRateLimit {
  private readonly limits: RateLimitConfig;

  constructor(
    @Inject(ThrottlerStorage) private readonly storage: FixedWindowThrottlerStorage,
    config: ConfigService<AppConfig, true>,
  ) {
    this.limits = config.get('rateLimit', { infer: true });
  }

  count(writer: string): void {
    const { windowMs, writesPerCredential } = this.limits;
    const key = FixedWindowThrottlerStorage.keyOf(WRITES_THROTTLER_NAME, writer);
    const record = this.storage.hit(key, windowMs, writesPerCredential, windowMs);
    if (record.isBlocked) throw new RetryLaterException(TOO_MANY_WRITES_MESSAGE, record.timeToBlockExpire);
  }
}
