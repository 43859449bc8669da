import { Injectable } from '@nestjs/common';
import { SecretSealer } from '../crypto/secret-sealer';
import { apiKeySealContext } from './sms-config-seal-context';
import { issuingKeyTag } from './verify-api-key-validity';

/** What a token is issued for: the configuration at a credential version, and the client key that obtained it. */
export interface TokenSubject {
  smsConfigId: number;
  clientId: number;
  credentialVersion: number;
  /** SHA-256 (hex) of the secretKey presented: the token stands only while that key authenticates. */
  presentedKeyDigest: string;
}

/** Issues verifyApiKey tokens: for the configuration's owner (add, change, verify-api-key) and for dispatch routing. */
@Injectable()
export class VerifyApiKeyIssuer {
  constructor(private readonly sealer: SecretSealer) {}

  /** A fresh token under the newest encryption key, over a fingerprint of the apiKey (none: null). */
  issue({ smsConfigId, clientId, credentialVersion, presentedKeyDigest }: TokenSubject, apiKey: string | null): string {
    return this.sealer.sealVerifyApiKey(
      { smsConfigId, clientId, apiKeyFingerprint: this.sealer.fingerprint(apiKey ?? '') },
      { credentialVersion, issuingKeyTag: issuingKeyTag(presentedKeyDigest), hasApiKey: apiKey !== null },
    );
  }

  /** The same, from the apiKey as stored (sealed), which it opens only to fingerprint. */
  issueForSealed(subject: TokenSubject, apiKeySealed: string | null): string {
    return this.issue(subject, this.openApiKey(apiKeySealed, subject.clientId));
  }

  openApiKey(apiKeySealed: string | null, clientId: number): string | null {
    return apiKeySealed === null ? null : this.sealer.open(apiKeySealed, apiKeySealContext(clientId));
  }
}
