import { Injectable } from '@nestjs/common';
import { register } from 'prom-client';

/**
 * How long one rendering of the registry is served again. Rendering costs about 1.2 ms of CPU (the default metrics read
 * /proc, the histograms are serialised); Prometheus scrapes every 15 s, so a second of age is invisible to it, while a
 * scrape storm costs one rendering a second.
 */
export const METRICS_CACHE_MS = 1000;

/** The Prometheus text of prom-client's default registry, rendered at most once per METRICS_CACHE_MS. */
@Injectable()
export class MetricsRenderer {
  readonly contentType = register.contentType;
  private rendered?: { text: Promise<string>; at: number };

  render(): Promise<string> {
    const now = performance.now();
    // Scrapes arriving while a rendering is under way share it too.
    if (this.rendered && now - this.rendered.at < METRICS_CACHE_MS) return this.rendered.text;
    const text = register.metrics();
    const rendered = { text, at: now };
    this.rendered = rendered;
    // A failed rendering is not served again.
    text.catch(() => {
      if (this.rendered === rendered) this.rendered = undefined;
    });
    return text;
  }
}
