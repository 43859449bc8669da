import { ConflictException } from '@nestjs/common';
import { OpenedVerifyApiKey } from '../crypto/secret-sealer';

/** Where a configuration's credentials are sent: changing one needs the credentials again in the same request. */
export const DESTINATION_FIELDS = ['smsApi', 'providerUrl', 'balanceUrl', 'username'] as const;

/** A change of any of these makes every earlier verifyApiKey stale: the credentials, and where they are sent. */
export const CREDENTIAL_BOUND_FIELDS = [...DESTINATION_FIELDS, 'password', 'apiKey'] as const;

/**
 * Tokens issued before they named their key carry none; they are taken as issued under the key the client had when this
 * release came out, so they end with the client's first rotation after it (and with any credential change, as their
 * credential version is 0). The date is this release's: any instance that reads it was deployed later.
 */
export const KEYLESS_TOKENS_END_WITH_ROTATIONS_AFTER = Date.parse('2026-11-25T00:00:00Z');

/** What names the secret key that obtained a token: half of the key's stored SHA-256, enough to tell a client's keys apart. */
export function issuingKeyTag(secretKeyDigest: string): string {
  return secretKeyDigest.slice(0, 32);
}

/** The state of a configuration and its client's keys that decides whether a token still resolves. */
export interface TokenStanding {
  credentialVersion: number;
  isActive: boolean;
  currentKeyDigest: string;
  previousKeyDigest: string | null;
  /** Epoch ms; null when there is no previous key. */
  previousKeyExpiresAt: number | null;
  secretKeyRotatedAt: number | null;
}

export class StaleVerifyApiKeyException extends ConflictException {
  constructor() {
    super('verifyApiKey is stale');
  }
}

export class RevokedVerifyApiKeyException extends ConflictException {
  constructor() {
    super('verifyApiKey was issued under a secret key that is no longer valid');
  }
}

export class InactiveSmsConfigException extends ConflictException {
  constructor() {
    super('SMS configuration is inactive');
  }
}

/**
 * Why an opened token does not resolve, or null when it does: the key that obtained it no longer authenticates, the
 * credentials or their destination changed since it was issued (or its apiKey fingerprint does not match the stored
 * apiKey), or the configuration is inactive.
 */
export function tokenRefusal(
  token: OpenedVerifyApiKey,
  standing: TokenStanding,
  fingerprintMatches: boolean,
  hasApiKey: boolean,
  now = Date.now(),
): ConflictException | null {
  if (!issuingKeyAuthenticates(token, standing, now)) return new RevokedVerifyApiKeyException();
  const credentialVersion = token.issue?.credentialVersion ?? 0;
  const sameApiKeyPresence = token.issue === null || token.issue.hasApiKey === hasApiKey;
  if (credentialVersion !== standing.credentialVersion || !fingerprintMatches || !sameApiKeyPresence) {
    return new StaleVerifyApiKeyException();
  }
  if (!standing.isActive) return new InactiveSmsConfigException();
  return null;
}

function issuingKeyAuthenticates(token: OpenedVerifyApiKey, standing: TokenStanding, now: number): boolean {
  if (token.issue === null) {
    return standing.secretKeyRotatedAt === null || standing.secretKeyRotatedAt <= KEYLESS_TOKENS_END_WITH_ROTATIONS_AFTER;
  }
  const tag = token.issue.issuingKeyTag;
  if (tag === issuingKeyTag(standing.currentKeyDigest)) return true;
  return (
    standing.previousKeyDigest !== null &&
    tag === issuingKeyTag(standing.previousKeyDigest) &&
    standing.previousKeyExpiresAt !== null &&
    standing.previousKeyExpiresAt > now
  );
}
