import { HttpException, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { AppConfig, RateLimitConfig } from '../config/app-config';
import { addressKeyOf } from './address-key';

export const BLOCKED_ADDRESS_MESSAGE = 'Too many refused credentials from this address, retry later';

// A blocked address is refused before its credential is looked at, so no key can be confirmed while the block lasts.
@Injectable()
export class AddressAllowance {
  private readonly refusals = new FixedWindowThrottlerStorage();
  private readonly limits: RateLimitConfig;

  constructor(config: ConfigService<AppConfig, true>) {
    this.limits = config.get('rateLimit', { infer: true });
  }

  blockedFor(ip: string): number {
    return this.refusals.blockedFor(addressKeyOf(ip));
  }

  refuseIfBlocked(ip: string): void {
    const seconds = this.blockedFor(ip);
    if (seconds > 0) throw new RetryLaterException(BLOCKED_ADDRESS_MESSAGE, seconds);
  }

  // 1 s to wait should the block have ended since.
  blockedRefusal(ip: string): RetryLaterException {
    return new RetryLaterException(BLOCKED_ADDRESS_MESSAGE, Math.max(1, this.blockedFor(ip)));
  }

  refuse(ip: string, refusal: HttpException): HttpException {
    const { windowMs, perIp, failedAuthPerIp } = this.limits;
    const record = this.refusals.hit(addressKeyOf(ip), windowMs, Math.min(perIp, failedAuthPerIp), windowMs);
    return record.isBlocked ? new RetryLaterException(BLOCKED_ADDRESS_MESSAGE, record.timeToBlockExpire) : refusal;
  }

  get size(): number {
    return this.refusals.size;
  }
}
