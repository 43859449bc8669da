import { HttpException, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { FixedWindowThrottlerStorage } from '../common/fixed-window.storage';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { AppConfig, RateLimitConfig } from '../config/app-config';

/**
 * Counts refused credentials per address (key guessing). Only refusals are counted and only refusals are turned into
 * 429s, so a caller with a valid credential is never held back by others guessing keys behind the same gateway address.
 */
@Injectable()
export class FailedLogins {
  private readonly failures = new FixedWindowThrottlerStorage();
  private readonly limits: RateLimitConfig;

  constructor(config: ConfigService<AppConfig, true>) {
    this.limits = config.get('rateLimit', { infer: true });
  }

  /** Counts one refusal from the address: the refusal itself, or a 429 once the address is past its limit. */
  refuse(ip: string, refusal: HttpException): HttpException {
    const { windowMs, failedAuthPerIp } = this.limits;
    const record = this.failures.hit(`failed-auth:${ip}`, windowMs, failedAuthPerIp, windowMs);
    if (!record.isBlocked) return refusal;
    return new RetryLaterException('Too many refused credentials from this address, retry later', record.timeToBlockExpire);
  }
}
