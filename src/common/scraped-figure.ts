import { withTimeout } from './errors/unavailable';

/** A scrape does not wait longer than this for a figure from the database; it shows the last one read instead. */
const SCRAPE_TIMEOUT_MS = 1000;

/**
 * A figure read from the database when /metrics is scraped: one read for every gauge collected in the same scrape; with
 * the database down or slow, the last figure read.
 */
export function scrapedFigure<T>(read: () => Promise<T>, initial: T): () => Promise<T> {
  let last = initial;
  let reading: Promise<T> | undefined;
  return () =>
    (reading ??= withTimeout(read(), SCRAPE_TIMEOUT_MS, 'database')
      .then((figure) => (last = figure))
      .catch(() => last)
      .finally(() => setImmediate(() => (reading = undefined))));
}
