import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerStorage } from '@nestjs/throttler';
import { AppConfig, RateLimitConfig } from '../config/app-config';
import { THROTTLER_NAME, credentialTracker } from './credential';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';

// In the throttler's own storage, under its guard's key, so secret keys share its limit and its count (rate_limit_tracked).
@Injectable()
export class CredentialRateLimit {
  private readonly limits: RateLimitConfig;

  constructor(
    @Inject(ThrottlerStorage) private readonly storage: FixedWindowThrottlerStorage,
    config: ConfigService<AppConfig, true>,
  ) {
    this.limits = config.get('rateLimit', { infer: true });
  }

  get trackedCredentials(): number {
    return this.storage.size;
  }

  acquire(credentialDigest: string): number {
    const { windowMs, perCredential } = this.limits;
    const key = FixedWindowThrottlerStorage.keyOf(THROTTLER_NAME, credentialTracker(credentialDigest));
    return this.storage.hit(key, windowMs, perCredential, windowMs).timeToBlockExpire;
  }
}
