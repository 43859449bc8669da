/** A request whose credential a guard has found valid, with the SHA-256 (hex) of that credential. */
export interface RequestWithCredential {
  credentialDigest?: string;
  /** Its guard counted it against its limit already (a secret key: SecretKeyAdmission); the throttler does not. */
  credentialCounted?: boolean;
  /** Whom the request's changes count for (write-limit.ts): every key of one client is one writer. */
  writer?: string;
  /** Counts the request as a write (429 past the limit), on a route where it counts only once it is known to run. */
  countWrite?: () => void;
}

/** Where the throttler's storage counts each credential's requests. */
export const THROTTLER_NAME = 'default';

/** The tracker of a valid credential, from its SHA-256 (hex): the same digest the client cache is keyed by. */
export function credentialTracker(credentialDigest: string): string {
  return `credential:${credentialDigest}`;
}
