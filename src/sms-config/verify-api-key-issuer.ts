import { Injectable } from '@nestjs/common';
import { SecretSealer } from '../crypto/secret-sealer';
import { apiKeySealContext } from './sms-config-seal-context';
import { issuingKeyTag } from './verify-api-key-validity';

export interface TokenSubject {
  smsConfigId: number;
  clientId: number;
  credentialVersion: number;
  // The token stands only while the key presented authenticates.
  presentedKeyDigest: string;
}

@Injectable()
export class VerifyApiKeyIssuer {
  constructor(private readonly sealer: SecretSealer) {}

  issue({ smsConfigId, clientId, credentialVersion, presentedKeyDigest }: TokenSubject, apiKey: string | null): string {
    return this.sealer.sealVerifyApiKey(
      { smsConfigId, clientId, apiKeyFingerprint: this.sealer.fingerprint(apiKey ?? '') },
      { credentialVersion, issuingKeyTag: issuingKeyTag(presentedKeyDigest), hasApiKey: apiKey !== null },
    );
  }

  issueForSealed(subject: TokenSubject, apiKeySealed: string | null): string {
    return this.issue(subject, this.openApiKey(apiKeySealed, subject.clientId));
  }

  openApiKey(apiKeySealed: string | null, clientId: number): string | null {
    return apiKeySealed === null ? null : this.sealer.open(apiKeySealed, apiKeySealContext(clientId));
  }
}
