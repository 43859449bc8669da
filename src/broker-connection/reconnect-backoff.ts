export const FIRST_RETRY_SECONDS = 1;
// Jitter included: a returning broker is found within the 30 s that events may take after an outage.
export const MAX_RETRY_SECONDS = 25;

// Jitter between half and all of the delay, so replicas that lost the broker together do not retry together.
export function retryDelaySeconds(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.max(0, failures - 1));
  return ceiling * (0.5 + random() / 2);
}
