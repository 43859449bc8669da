import { withTimeout } from './errors/unavailable';

const SCRAPE_TIMEOUT_MS = 1000;

// One database read serves every gauge of a scrape; a slow or down database shows the last figure read.
export function scrapedFigure<T>(read: () => Promise<T>, initial: T): () => Promise<T> {
  let last = initial;
  let reading: Promise<T> | undefined;
  return () =>
    (reading ??= withTimeout(read(), SCRAPE_TIMEOUT_MS, 'database')
      .then((figure) => (last = figure))
      .catch(() => last)
      .finally(() => setImmediate(() => (reading = undefined))));
}
