import { HttpException, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { AppConfig, RateLimitConfig } from '../config/app-config';
import { addressKeyOf } from './address-key';

export const BLOCKED_ADDRESS_MESSAGE = 'Too many refused credentials from this address, retry later';

/**
 * What an address may do without a valid credential. Every refused request (no credential, a malformed one, one nobody
 * has) counts against its address: past RATE_LIMIT_PER_IP, or past RATE_LIMIT_FAILED_AUTH_PER_IP, the address is
 * blocked for the window, and a blocked address is refused before its credential is even looked at, right key or
 * not, so guessing costs one map lookup and no key can be confirmed by a 200 while the block lasts.
 *
 * Counted by address only (an IPv6 caller by its /64): the credentials themselves are never kept, so made-up keys
 * add nothing to memory, and the map is bounded whatever the number of addresses.
 */
@Injectable()
export class AddressAllowance {
  private readonly refusals = new FixedWindowThrottlerStorage();
  private readonly limits: RateLimitConfig;

  constructor(config: ConfigService<AppConfig, true>) {
    this.limits = config.get('rateLimit', { infer: true });
  }

  /** Seconds until the address may try again; 0 when it is not blocked. */
  blockedFor(ip: string): number {
    return this.refusals.blockedFor(addressKeyOf(ip));
  }

  /** Throws the 429 a blocked address gets, before anything else is done for its request. */
  refuseIfBlocked(ip: string): void {
    const seconds = this.blockedFor(ip);
    if (seconds > 0) throw new RetryLaterException(BLOCKED_ADDRESS_MESSAGE, seconds);
  }

  /** The 429 of an address found blocked (1 s to wait should the block have ended since). */
  blockedRefusal(ip: string): RetryLaterException {
    return new RetryLaterException(BLOCKED_ADDRESS_MESSAGE, Math.max(1, this.blockedFor(ip)));
  }

  /** Counts one refusal from the address: the refusal itself, or a 429 once the address is past its limit. */
  refuse(ip: string, refusal: HttpException): HttpException {
    const { windowMs, perIp, failedAuthPerIp } = this.limits;
    const record = this.refusals.hit(addressKeyOf(ip), windowMs, Math.min(perIp, failedAuthPerIp), windowMs);
    return record.isBlocked ? new RetryLaterException(BLOCKED_ADDRESS_MESSAGE, record.timeToBlockExpire) : refusal;
  }

  /** Addresses counted now (a gauge and the tests read it). */
  get size(): number {
    return this.refusals.size;
  }
}
