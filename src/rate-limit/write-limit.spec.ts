import { ConfigService } from '@nestjs/config';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { AppConfig } from '../config/app-config';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';
import { WriteRateLimit } from './write-limit';

describe('WriteRateLimit', () => {
  const rateLimit = { windowMs: 60_000, perCredential: 1_000_000, writesPerCredential: 3, perIp: 10, failedAuthPerIp: 10 };
  const config = { get: () => rateLimit } as unknown as ConfigService<AppConfig, true>;

  it('should let a writer make its limit of writes, then refuse with a 429 that says when to retry, other writers apart', () => {
    const storage = new FixedWindowThrottlerStorage();
    const writes = new WriteRateLimit(storage, config);
    for (let i = 0; i < 3; i++) writes.count('client:1');
    const refusal = (() => {
      try {
        writes.count('client:1');
      } catch (error) {
        return error as RetryLaterException;
      }
      throw new Error('count did not throw');
    })();
    expect(refusal).toBeInstanceOf(RetryLaterException);
    expect(refusal.getStatus()).toBe(429);
    expect(refusal.message).toBe('Too many changes for this client, retry later');
    expect(refusal.retryAfterSeconds).toBe(60);
    expect(() => writes.count('client:2')).not.toThrow();
    // Counted apart from the per-credential limit, in the same storage.
    expect(storage.blockedFor('writes:client:1')).toBe(60);
  });
});
