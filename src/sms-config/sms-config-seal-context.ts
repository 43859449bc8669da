import { SealContext } from '../crypto/secret-sealer';

// Bound to the client, not the row: the smsConfigId does not exist until the INSERT, sent in the same round trip.
export function passwordSealContext(clientId: number | string): SealContext {
  return { table: 'sms_config', column: 'password_sealed', owner: clientId };
}

export function apiKeySealContext(clientId: number | string): SealContext {
  return { table: 'sms_config', column: 'api_key_sealed', owner: clientId };
}

// Each sealed column's context, by the request field it stores (@SealedFrom on the entity).
export const SEAL_CONTEXTS: Record<string, (clientId: number | string) => SealContext> = {
  password: passwordSealContext,
  apiKey: apiKeySealContext,
};
