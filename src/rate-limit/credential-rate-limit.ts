import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerStorage } from '@nestjs/throttler';
import { AppConfig, RateLimitConfig } from '../config/app-config';
import { credentialTracker } from './credential';
import { THROTTLER_NAME } from './credential-throttler.guard';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';

/**
 * The per-credential limit for answers given ahead of Nest's guards (get-client from the cache): counted synchronously
 * in the throttler's own storage, under the key its guard uses, so both paths share one allowance.
 */
@Injectable()
export class CredentialRateLimit {
  private readonly limits: RateLimitConfig;

  constructor(
    @Inject(ThrottlerStorage) private readonly storage: FixedWindowThrottlerStorage,
    config: ConfigService<AppConfig, true>,
  ) {
    this.limits = config.get('rateLimit', { infer: true });
  }

  /** Valid credentials counted in the current windows (the rate_limit_tracked gauge). */
  get trackedCredentials(): number {
    return this.storage.size;
  }

  /** Counts one request; false once the credential is over its limit (the request then goes the full way, to its 429). */
  tryAcquire(credentialDigest: string): boolean {
    const { windowMs, perCredential } = this.limits;
    const key = FixedWindowThrottlerStorage.keyOf(THROTTLER_NAME, credentialTracker(credentialDigest));
    return !this.storage.hit(key, windowMs, perCredential, windowMs).isBlocked;
  }
}
