import type { IncomingHttpHeaders } from 'node:http';
import { presentedCredential } from '../auth/credential-headers';
import { sha256Hex } from '../auth/digest';

/** Who a request counts against: its credential (a digest, so keys are not kept in memory), else its address. */
export function rateLimitTracker(request: { headers: IncomingHttpHeaders; ip: string }): string {
  const credential = presentedCredential(request.headers);
  return credential === undefined ? `ip:${request.ip}` : credentialTracker(sha256Hex(credential));
}

/** The tracker of a credential, from its SHA-256 (hex): the same digest the client cache is keyed by. */
export function credentialTracker(credentialDigest: string): string {
  return `credential:${credentialDigest}`;
}
