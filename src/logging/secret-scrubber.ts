import pino from 'pino';

/**
 * Runs of 40 or more characters of the key alphabet: secret keys (`sk_` + 43), SHA-256 digests (64 hex characters),
 * verifyApiKey tokens (64 and more). Nothing else the service logs has such a run: UUIDs are 36, paths and stack
 * frames are broken by `/` and `.`.
 */
const KEY_LIKE = /[A-Za-z0-9_-]{40,}/g;
export const REDACTED = '[redacted]';
/** Nested objects are scrubbed this deep; deeper ones are dropped. */
const MAX_DEPTH = 8;
/** A configured secret shorter than this is not searched for: it would blank ordinary words. */
const MIN_SECRET_LENGTH = 4;

/**
 * Removes from what a log line carries everything that looks like a credential, and every configured secret (admin
 * keys, encryption keys, the database's and broker's passwords) wherever it appears. For the lines that are not the
 * access log's: errors, warnings, Nest's own. Slow for a hot path (a regular expression over every string).
 */
export class SecretScrubber {
  private readonly secrets: string[];

  constructor(secrets: string[]) {
    // Longest first, so a secret that contains another is removed whole.
    this.secrets = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  }

  scrub(text: string): string {
    let scrubbed = text.replace(KEY_LIKE, REDACTED);
    for (const secret of this.secrets) if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(REDACTED);
    return scrubbed;
  }

  /** A copy of a log argument with every string scrubbed; an Error becomes its serialized form first. */
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
