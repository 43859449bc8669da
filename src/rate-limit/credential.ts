/** A request whose credential a guard has found valid, with the SHA-256 (hex) of that credential. */
export interface RequestWithCredential {
  credentialDigest?: string;
}

/** The tracker of a valid credential, from its SHA-256 (hex): the same digest the client cache is keyed by. */
export function credentialTracker(credentialDigest: string): string {
  return `credential:${credentialDigest}`;
}
