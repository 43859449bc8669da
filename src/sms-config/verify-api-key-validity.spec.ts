import { OpenedVerifyApiKey } from '../crypto/secret-sealer';
import {
  InactiveSmsConfigException,
  KEYLESS_TOKENS_END_WITH_ROTATIONS_AFTER,
  RevokedVerifyApiKeyException,
  StaleVerifyApiKeyException,
  TokenStanding,
  issuingKeyTag,
  tokenRefusal,
} from './verify-api-key-validity';

const CURRENT = 'c'.repeat(64);
const PREVIOUS = 'p'.repeat(64);
const NOW = Date.parse('2027-03-01T12:00:00Z');

const standing = (overrides: Partial<TokenStanding> = {}): TokenStanding => ({
  credentialVersion: 2,
  isActive: true,
  currentKeyDigest: CURRENT,
  previousKeyDigest: PREVIOUS,
  previousKeyExpiresAt: NOW + 1000,
  secretKeyRotatedAt: NOW - 1000,
  issuingScopedKey: null,
  ...overrides,
});

const token = (issue: Partial<NonNullable<OpenedVerifyApiKey['issue']>> | null = {}): OpenedVerifyApiKey => ({
  smsConfigId: 1,
  clientId: 2,
  apiKeyFingerprint: 'f',
  keyId: 'k1',
  issue: issue === null ? null : { credentialVersion: 2, issuingKeyTag: issuingKeyTag(CURRENT), hasApiKey: true, ...issue },
});

describe('tokenRefusal', () => {
  it('should let a token of the current version, obtained with the current key, resolve', () => {
    expect(tokenRefusal(token(), standing(), true, true, NOW)).toBeNull();
  });

  it('should let a token obtained with the previous key resolve until that key expires, and not after', () => {
    const underPrevious = token({ issuingKeyTag: issuingKeyTag(PREVIOUS) });
    expect(tokenRefusal(underPrevious, standing(), true, true, NOW)).toBeNull();
    expect(tokenRefusal(underPrevious, standing({ previousKeyExpiresAt: NOW }), true, true, NOW)).toBeInstanceOf(
      RevokedVerifyApiKeyException,
    );
    expect(tokenRefusal(underPrevious, standing({ previousKeyDigest: null, previousKeyExpiresAt: null }), true, true, NOW)).toBeInstanceOf(
      RevokedVerifyApiKeyException,
    );
  });

  it('should let a token obtained with a scoped key resolve while the key exists and before its end, and not after', () => {
    const underScoped = token({ issuingKeyTag: issuingKeyTag('s'.repeat(64)) });
    expect(tokenRefusal(underScoped, standing({ issuingScopedKey: { expiresAt: null } }), true, true, NOW)).toBeNull();
    expect(tokenRefusal(underScoped, standing({ issuingScopedKey: { expiresAt: NOW + 1 } }), true, true, NOW)).toBeNull();
    expect(tokenRefusal(underScoped, standing({ issuingScopedKey: { expiresAt: NOW } }), true, true, NOW)).toBeInstanceOf(
      RevokedVerifyApiKeyException,
    );
    // Deleted: the read finds no scoped key of the client under the token's tag.
    expect(tokenRefusal(underScoped, standing({ issuingScopedKey: null }), true, true, NOW)).toBeInstanceOf(RevokedVerifyApiKeyException);
  });

  it('should refuse a token obtained with a key the client no longer has, whatever else holds', () => {
    const underOld = token({ issuingKeyTag: issuingKeyTag('o'.repeat(64)) });
    expect(tokenRefusal(underOld, standing(), true, true, NOW)).toBeInstanceOf(RevokedVerifyApiKeyException);
    expect(new RevokedVerifyApiKeyException().message).toBe('verifyApiKey was issued under a secret key that is no longer valid');
  });

  it('should call a token of another credential version, fingerprint or apiKey presence stale', () => {
    expect(tokenRefusal(token({ credentialVersion: 1 }), standing(), true, true, NOW)).toBeInstanceOf(StaleVerifyApiKeyException);
    expect(tokenRefusal(token(), standing(), false, true, NOW)).toBeInstanceOf(StaleVerifyApiKeyException);
    expect(tokenRefusal(token({ hasApiKey: false }), standing(), true, true, NOW)).toBeInstanceOf(StaleVerifyApiKeyException);
    expect(new StaleVerifyApiKeyException().message).toBe('verifyApiKey is stale');
  });

  it('should refuse an inactive configuration only once the token itself stands', () => {
    expect(tokenRefusal(token(), standing({ isActive: false }), true, true, NOW)).toBeInstanceOf(InactiveSmsConfigException);
    expect(tokenRefusal(token({ credentialVersion: 1 }), standing({ isActive: false }), true, true, NOW)).toBeInstanceOf(
      StaleVerifyApiKeyException,
    );
    expect(new InactiveSmsConfigException().message).toBe('SMS configuration is inactive');
  });

  it('should take a token issued before tokens named their key as version 0, ended by any rotation after this release', () => {
    const keyless = token(null);
    const untouched = standing({ credentialVersion: 0, secretKeyRotatedAt: null });
    expect(tokenRefusal(keyless, untouched, true, true, NOW)).toBeNull();
    expect(
      tokenRefusal(keyless, { ...untouched, secretKeyRotatedAt: KEYLESS_TOKENS_END_WITH_ROTATIONS_AFTER }, true, true, NOW),
    ).toBeNull();
    expect(
      tokenRefusal(keyless, { ...untouched, secretKeyRotatedAt: KEYLESS_TOKENS_END_WITH_ROTATIONS_AFTER + 1 }, true, true, NOW),
    ).toBeInstanceOf(RevokedVerifyApiKeyException);
    expect(tokenRefusal(keyless, { ...untouched, credentialVersion: 1 }, true, true, NOW)).toBeInstanceOf(StaleVerifyApiKeyException);
  });
});
