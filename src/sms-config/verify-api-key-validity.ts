import { ConflictException } from '@nestjs/common';
import { OpenedVerifyApiKey } from '../crypto/secret-sealer';

// Changing where the credentials are sent needs the credentials again in the same request.
export const DESTINATION_FIELDS = ['smsApi', 'providerUrl', 'balanceUrl', 'username'] as const;

export const CREDENTIAL_BOUND_FIELDS = [...DESTINATION_FIELDS, 'password', 'apiKey'] as const;

// Tokens that name no key end with the client's first rotation after this release's date, which every instance reading
// this constant was deployed after.
export const KEYLESS_TOKENS_END_WITH_ROTATIONS_AFTER = Date.parse('2026-11-25T00:00:00Z');

// Half of the key's SHA-256 is enough to tell a client's keys apart.
export const ISSUING_KEY_TAG_LENGTH = 32;

export function issuingKeyTag(secretKeyDigest: string): string {
  return secretKeyDigest.slice(0, ISSUING_KEY_TAG_LENGTH);
}

export interface TokenStanding {
  credentialVersion: number;
  isActive: boolean;
  currentKeyDigest: string;
  previousKeyDigest: string | null;
  previousKeyExpiresAt: number | null;
  secretKeyRotatedAt: number | null;
  // The scoped key of the client whose tag the token names, while it exists; its end, null when it has none.
  issuingScopedKey: { expiresAt: number | null } | null;
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
  const scoped = standing.issuingScopedKey;
  if (scoped !== null) return scoped.expiresAt === null || scoped.expiresAt > now;
  return (
    standing.previousKeyDigest !== null &&
    tag === issuingKeyTag(standing.previousKeyDigest) &&
    standing.previousKeyExpiresAt !== null &&
    standing.previousKeyExpiresAt > now
  );
}
