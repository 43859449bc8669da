import { sha256Hex } from '../auth/digest';
import { generateSecretKey } from '../auth/secret-key';
import { ClientCache } from '../client-cache/client-cache';
import { ClientCacheInvalidation } from '../client-cache/client-cache-invalidator';
import { ChangeOrigin } from '../auth/actor';
import { NewClient } from './client-fields';
import { ClientRepository } from './client.repository';
import { AddClientDto } from './dto/add-client.dto';
import { ClientService } from './client.service';
import { ClientWithSmsConfigs, GetClientRepository } from './get-client.repository';

const STORED: ClientWithSmsConfigs = {
  clientId: 9,
  isActive: true,
  isPreviousKey: false,
  keyExpiresAt: null,
  keyDigests: ['d'.repeat(64)],
  appDescription: null,
  appUrl: 'https://billing.example.com',
  preferredSmsGateway: 'twilio',
  preferredEmailGateway: null,
  preferredPushNotificationGateway: null,
  isHost: false,
  smsConfigs: [],
};

describe('ClientService', () => {
  let insert: jest.Mock<Promise<NewClient>, [AddClientDto, string, ChangeOrigin]>;
  let find: jest.Mock<Promise<ClientWithSmsConfigs | null>, [string]>;
  let cache: ClientCache;
  let invalidation: jest.Mocked<ClientCacheInvalidation>;
  let service: ClientService;

  beforeEach(() => {
    insert = jest
      .fn<Promise<NewClient>, [AddClientDto, string, ChangeOrigin]>()
      .mockImplementation((request, secretKeyDigest) =>
        Promise.resolve({ ...STORED, ...request, secretKeyDigest } as unknown as NewClient),
      );
    find = jest.fn<Promise<ClientWithSmsConfigs | null>, [string]>().mockResolvedValue(STORED);
    cache = new ClientCache({ maxBytes: 1_000_000 });
    cache.setLive(true);
    invalidation = {
      answerChanged: jest.fn(),
      keyChanged: jest.fn(),
      keyIssued: jest.fn(),
      providerHostsChanged: jest.fn(),
      answerChangeStatement: jest.fn(),
    };
    service = new ClientService(
      { insert } as unknown as ClientRepository,
      { findWithSmsConfigsByDigest: find } as unknown as GetClientRepository,
      cache,
      invalidation,
    );
  });

  it('should store a new client under the digest of a new key and answer the key, nowhere stored', async () => {
    const request = { appName: 'Billing', appUrl: 'https://billing.example.com', isHost: false };
    const origin = { actor: 'admin:12345678', requestId: 'r1', callerRequestId: null, sourceAddress: null, userAgent: null };
    const answer = await service.create(request, origin);
    expect(answer.secretKey).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    // What the row holds of the request: ClientFields.added (client-fields.spec.ts).
    expect(insert).toHaveBeenCalledWith(request, sha256Hex(answer.secretKey), origin);
    expect(JSON.stringify(insert.mock.calls[0])).not.toContain(answer.secretKey);
    expect(answer).toMatchObject({ appUrl: 'https://billing.example.com', isHost: false, smsConfig: null });
    expect(invalidation.keyIssued).toHaveBeenCalledWith(sha256Hex(answer.secretKey));
  });

  it('should answer get-client with the key echoed, reading the database once for repeated calls', async () => {
    const secretKey = generateSecretKey();
    const first = await service.getAnswer(secretKey);
    expect(JSON.parse(first!)).toEqual({
      status: 200,
      results: {
        appDescription: null,
        appUrl: 'https://billing.example.com',
        secretKey,
        preferredSmsGateway: 'twilio',
        preferredEmailGateway: null,
        preferredPushNotificationGateway: null,
        isHost: false,
        smsConfig: null,
      },
    });
    await expect(service.getAnswer(secretKey)).resolves.toBe(first);
    expect(find).toHaveBeenCalledTimes(1);
    expect(find).toHaveBeenCalledWith(sha256Hex(secretKey));
  });

  it('should remember a key no client has, and never look up a malformed one', async () => {
    find.mockResolvedValue(null);
    const unknown = generateSecretKey();
    await expect(service.getAnswer(unknown)).resolves.toBeNull();
    await expect(service.authenticate(unknown)).resolves.toBeNull();
    await expect(service.authenticate('not-a-key')).resolves.toBeNull();
    expect(find).toHaveBeenCalledTimes(1);
  });

  it('should authenticate a key as its client’s id and digest, with what the key may do', async () => {
    const secretKey = generateSecretKey();
    await expect(service.authenticate(secretKey)).resolves.toEqual({
      id: 9,
      secretKeyDigest: sha256Hex(secretKey),
      isActive: true,
      isPreviousKey: false,
      keyDigests: ['d'.repeat(64)],
    });
  });

  describe("the edge's answers", () => {
    /** A database read that answers when the test says so. */
    const deferredRead = () => {
      let answer!: (found: ClientWithSmsConfigs | null) => void;
      find.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
      return (found: ClientWithSmsConfigs | null) => answer(found);
    };

    it('should answer a cached, enabled client at once, and leave everything else to the full way', async () => {
      const secretKey = generateSecretKey();
      const digest = sha256Hex(secretKey);
      expect(service.cachedAnswer(secretKey, digest)).toBeUndefined();
      const loaded = await service.loadAnswer(secretKey, digest);
      expect(JSON.parse(loaded!).results.secretKey).toBe(secretKey);
      expect(service.cachedAnswer(secretKey, digest)).toBe(loaded);

      find.mockResolvedValue({ ...STORED, isActive: false });
      const disabledKey = generateSecretKey();
      await expect(service.loadAnswer(disabledKey, sha256Hex(disabledKey))).resolves.toBeNull();
      expect(service.cachedAnswer(disabledKey, sha256Hex(disabledKey))).toBeNull();
      find.mockResolvedValue(null);
      const unknownKey = generateSecretKey();
      await expect(service.loadAnswer(unknownKey, sha256Hex(unknownKey))).resolves.toBeNull();
      expect(service.cachedAnswer(unknownKey, sha256Hex(unknownKey))).toBeNull();
    });

    it("should read the database once for concurrent misses of one key, the guards' included", async () => {
      const secretKey = generateSecretKey();
      const digest = sha256Hex(secretKey);
      const answer = deferredRead();
      const answers = Promise.all([
        service.loadAnswer(secretKey, digest),
        service.loadAnswer(secretKey, digest),
        service.getAnswer(secretKey),
      ]);
      const owner = service.authenticate(secretKey);
      answer(STORED);
      const [first, ...others] = await answers;
      expect(others).toEqual([first, first]);
      expect((await owner)?.id).toBe(9);
      expect(find).toHaveBeenCalledTimes(1);
    });
  });
});
