import { SealContext } from '../crypto/secret-sealer';

/**
 * Where an SMS configuration's provider secrets are sealed: their column, and the client the row belongs to (its
 * smsConfigId does not exist until the INSERT, which runs in the same round trip). Every seal and open of these columns
 * goes through these two, so they always agree.
 */
export function passwordSealContext(clientId: number | string): SealContext {
  return { table: 'sms_config', column: 'password_sealed', owner: clientId };
}

export function apiKeySealContext(clientId: number | string): SealContext {
  return { table: 'sms_config', column: 'api_key_sealed', owner: clientId };
}
