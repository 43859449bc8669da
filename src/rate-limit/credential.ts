export interface RequestWithCredential {
  credentialDigest?: string;
  // Its guard counted it already (a secret key: SecretKeyAdmission), so the throttler does not.
  credentialCounted?: boolean;
  // Every key of one client is one writer.
  writer?: string;
  // Set on a route where a request counts only once it is known to run.
  countWrite?: () => void;
}

export const THROTTLER_NAME = 'default';

export function credentialTracker(credentialDigest: string): string {
  return `credential:${credentialDigest}`;
}
