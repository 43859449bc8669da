import { randomBytes } from 'node:crypto';
import { ForbiddenException } from '@nestjs/common';
import { CacheChange } from '../client-cache/client-cache-invalidator';
import { SecretSealer, UnsealError } from '../crypto/secret-sealer';
import { Transactions } from '../database/transactions';
import { ProviderHostApproval } from '../provider-host/provider-host-approval';
import { SmsConfigLimitReachedException } from './sms-config-limit';
import { apiKeySealContext, passwordSealContext } from './sms-config-seal-context';
import { SmsConfigBudgetRepository } from './sms-config-budget.repository';
import { SmsConfigRepository } from './sms-config.repository';
import { VerifyApiKeyIssuer } from './verify-api-key-issuer';
import { SmsConfigService } from './sms-config.service';

const OWNER = {
  id: 42,
  secretKeyDigest: 'd'.repeat(64),
  isActive: true,
  isPreviousKey: false,
  scopedKey: null,
  keyDigests: ['d'.repeat(64), 'e'.repeat(64)],
};
const ORIGIN = { actor: 'client:42', requestId: 'req-1', callerRequestId: null, sourceAddress: null, userAgent: null };
const REQUEST = { providerName: 'Twilio', smsApi: 'https://api.twilio.com/send' };

describe('SmsConfigService', () => {
  const sealer = new SecretSealer([{ id: 'k1', key: randomBytes(32) }]);
  let add: jest.Mock<Promise<number>, Parameters<SmsConfigRepository['add']>>;
  // The invalidation commits with the add, in the repository's script: the service hands it over.
  const INVALIDATION = { sql: 'the invalidation', values: [] };
  let invalidation: jest.Mock<Array<typeof INVALIDATION>, [CacheChange]>;
  let service: SmsConfigService;

  beforeEach(() => {
    add = jest.fn<Promise<number>, Parameters<SmsConfigRepository['add']>>().mockResolvedValue(7);
    invalidation = jest.fn().mockReturnValue([INVALIDATION]);
    service = new SmsConfigService(
      { add } as unknown as SmsConfigRepository,
      {} as SmsConfigBudgetRepository,
      sealer,
      { changed: jest.fn(), changeStatements: invalidation, keyIssued: jest.fn() },
      {} as Transactions,
      new VerifyApiKeyIssuer(sealer),
      {} as ProviderHostApproval,
    );
  });

  it('should store the configuration for the key’s client, the fields left out for the repository to default, and answer a verifyApiKey for it', async () => {
    const answer = await service.add(OWNER, REQUEST, ORIGIN);
    // The defaults are the columns': the repository's spec shows them stored.
    expect(add).toHaveBeenCalledWith(
      { clientId: 42, providerName: 'Twilio', smsApi: 'https://api.twilio.com/send' },
      ORIGIN,
      [],
      [INVALIDATION],
    );
    expect(sealer.openVerifyApiKey(answer.verifyApiKey)).toEqual({
      smsConfigId: 7,
      clientId: 42,
      apiKeyFingerprint: sealer.fingerprint(''),
      keyId: 'k1',
      // Version 0, the column's default; the key presented, by its tag; no apiKey, which '' is not.
      issue: { credentialVersion: 0, issuingKeyTag: 'd'.repeat(32), hasApiKey: false },
    });
  });

  it('should hand the repository the password and apiKey sealed, never as sent', async () => {
    const answer = await service.add(OWNER, { ...REQUEST, password: 'p4ss', apiKey: 'k3y' }, ORIGIN);
    const [stored] = add.mock.calls[0];
    expect(JSON.stringify(stored)).not.toMatch(/p4ss|k3y/);
    expect(sealer.open(stored.passwordSealed!, passwordSealContext(42))).toBe('p4ss');
    expect(sealer.open(stored.apiKeySealed!, apiKeySealContext(42))).toBe('k3y');
    expect(sealer.openVerifyApiKey(answer.verifyApiKey).apiKeyFingerprint).toBe(sealer.fingerprint('k3y'));
  });

  it('should seal the password and apiKey for their own column of a row of the key’s client only', async () => {
    await service.add(OWNER, { ...REQUEST, password: 'p4ss', apiKey: 'k3y' }, ORIGIN);
    const [stored] = add.mock.calls[0];
    expect(passwordSealContext(42)).toEqual({ table: 'sms_config', column: 'password_sealed', owner: 42 });
    expect(apiKeySealContext(42)).toEqual({ table: 'sms_config', column: 'api_key_sealed', owner: 42 });
    expect(() => sealer.open(stored.passwordSealed!, passwordSealContext(43))).toThrow(UnsealError);
    expect(() => sealer.open(stored.passwordSealed!, apiKeySealContext(42))).toThrow(UnsealError);
    expect(() => sealer.open(stored.apiKeySealed!, apiKeySealContext(43))).toThrow(UnsealError);
    expect(() => sealer.open(stored.apiKeySealed!, passwordSealContext(42))).toThrow(UnsealError);
  });

  it('should hand the repository the invalidation of every key of the client, to commit with the configuration', async () => {
    await service.add(OWNER, REQUEST, ORIGIN);
    expect(invalidation).toHaveBeenCalledWith({ keys: OWNER.keyDigests, smsConfig: 'row' });
    expect(add.mock.calls[0][3]).toEqual([INVALIDATION]);
  });

  it('should refuse with the repository’s refusal when it refuses the configuration', async () => {
    add.mockRejectedValue(new SmsConfigLimitReachedException());
    await expect(service.add(OWNER, REQUEST, ORIGIN)).rejects.toThrow('A client can have at most 100 SMS configurations');
  });

  it('should refuse a clientId other than the key’s client with 403, and store nothing', async () => {
    await expect(service.add(OWNER, { ...REQUEST, clientId: 43 }, ORIGIN)).rejects.toThrow(ForbiddenException);
    await expect(service.listForClient(42, 43)).rejects.toThrow(ForbiddenException);
    expect(add).not.toHaveBeenCalled();
  });
});
