import { MAX_RETRY_SECONDS, retryDelaySeconds } from './reconnect-backoff';

describe('retryDelaySeconds', () => {
  it('should double with each failure, between half and all of the doubled delay', () => {
    expect([1, 2, 3, 4, 5].map((failures) => retryDelaySeconds(failures, () => 1))).toEqual([1, 2, 4, 8, 16]);
    expect([1, 2, 3, 4, 5].map((failures) => retryDelaySeconds(failures, () => 0))).toEqual([0.5, 1, 2, 4, 8]);
  });

  it(`should never wait more than ${MAX_RETRY_SECONDS} s, however long the broker is away`, () => {
    for (const failures of [6, 10, 100, 10_000]) {
      expect(retryDelaySeconds(failures, () => 1)).toBe(MAX_RETRY_SECONDS);
      expect(retryDelaySeconds(failures, () => 0)).toBe(MAX_RETRY_SECONDS / 2);
    }
  });
});
