import pino from 'pino';
import { KEY_LIKE_RUNS } from '../common/key-like';

export const REDACTED = '[redacted]';
const MAX_DEPTH = 8;
// A shorter configured secret would blank ordinary words.
const MIN_SECRET_LENGTH = 4;

// Not on the access log: a regular expression over every string is too slow for the hot path.
export class SecretScrubber {
  private readonly secrets: string[];

  constructor(secrets: string[]) {
    // Longest first, so a secret that contains another is removed whole.
    this.secrets = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  }

  scrub(text: string): string {
    let scrubbed = text.replace(KEY_LIKE_RUNS, REDACTED);
    for (const secret of this.secrets) if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(REDACTED);
    return scrubbed;
  }

  scrubDeep(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.scrub(value);
    if (value === null || typeof value !== 'object') return value;
    if (depth >= MAX_DEPTH) return REDACTED;
    if (value instanceof Error) return this.scrubDeep(pino.stdSerializers.err(value), depth + 1);
    if (Array.isArray(value)) return value.map((item) => this.scrubDeep(item, depth + 1));
    if (Buffer.isBuffer(value)) return REDACTED;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.scrubDeep(item, depth + 1)]));
  }
}
