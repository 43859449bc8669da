import { Injectable } from '@nestjs/common';
import { register } from 'prom-client';

// A rendering costs about 1.2 ms of CPU: a scrape storm costs one a second (docs/operations.md).
export const METRICS_CACHE_MS = 1000;

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
