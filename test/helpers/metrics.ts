import { METRICS_CACHE_MS } from '../../src/metrics/metrics-renderer';
import { ADMIN_API_KEY, TestApp } from './test-app';

/** The value of one series of GET /metrics (`name{labels}` as the page writes it), 0 when it is not there. */
export async function metricOf(app: TestApp, line: string): Promise<number> {
  const found = (await app.get('/metrics', { 'x-api-key': ADMIN_API_KEY })).raw.split('\n').find((each) => each.startsWith(`${line} `));
  return found === undefined ? 0 : Number(found.split(' ').at(-1));
}

/** The metrics page is rendered at most once a second: waits until `line` reads `value`. */
export async function metricReaches(app: TestApp, line: string, value: number): Promise<void> {
  const start = Date.now();
  while ((await metricOf(app, line)) !== value) {
    if (Date.now() - start > METRICS_CACHE_MS + 1000) throw new Error(`${line} did not reach ${value}: ${await metricOf(app, line)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
