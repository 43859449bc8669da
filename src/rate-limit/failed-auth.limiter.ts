import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig, RateLimitConfig } from '../config/app-config';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';

/**
 * Counts refused credentials per address. Only refusals are counted and only refusals are turned into 429s, so a
 * caller with a valid credential is never held back by others guessing keys behind the same gateway address.
 */
@Injectable()
export class FailedAuthLimiter {
  private readonly failures = new FixedWindowThrottlerStorage();
  private readonly limits: RateLimitConfig;

  constructor(config: ConfigService<AppConfig, true>) {
    this.limits = config.get('rateLimit', { infer: true });
  }

  /** Records one refused credential from the address; the seconds to wait when the address is over its limit. */
  recordFailure(ip: string): number | undefined {
    const { windowMs, failedAuthPerIp } = this.limits;
    const record = this.failures.hit(`failed-auth:${ip}`, windowMs, failedAuthPerIp, windowMs);
    return record.isBlocked ? record.timeToBlockExpire : undefined;
  }
}
