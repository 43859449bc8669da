import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerStorage } from '@nestjs/throttler';
import { AppConfig, RateLimitConfig } from '../config/app-config';
import { THROTTLER_NAME, credentialTracker } from './credential';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';

/**
 * The per-credential limit of secret keys (SecretKeyAdmission, at the edge and in SecretKeyGuard): counted
 * synchronously, in the throttler's own storage and under the key its guard would use, so they have the limit of the
 * admin and dispatcher keys the throttler counts, and show in the same count (rate_limit_tracked).
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

  /** Counts one request; once the credential is over its limit, the seconds until it may try again (else 0). */
  acquire(credentialDigest: string): number {
    const { windowMs, perCredential } = this.limits;
    const key = FixedWindowThrottlerStorage.keyOf(THROTTLER_NAME, credentialTracker(credentialDigest));
    return this.storage.hit(key, windowMs, perCredential, windowMs).timeToBlockExpire;
  }
}
