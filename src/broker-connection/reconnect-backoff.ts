/** The first retry after a failure waits about this long; each further failure doubles it. */
export const FIRST_RETRY_SECONDS = 1;
/**
 * No retry waits longer than this, jitter included: a broker that comes back is found within it (and within the 30 s
 * that events may take after the broker returns).
 */
export const MAX_RETRY_SECONDS = 25;

/**
 * Seconds to wait before the attempt that follows the given number of consecutive failures: exponential, with jitter
 * between half and all of it, so replicas that lost the broker together do not knock on it together.
 */
export function retryDelaySeconds(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.max(0, failures - 1));
  return ceiling * (0.5 + random() / 2);
}
