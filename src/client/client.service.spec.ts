import { sha256Hex } from '../auth/digest';
import { generateScopedKey } from '../auth/scoped-key';
import { generateSecretKey } from '../auth/secret-key';
import { ClientCache } from '../client-cache/client-cache';
import { ClientService } from './client.service';
import { ClientWithSmsConfigs, GetClientRepository } from './get-client.repository';

const STORED: ClientWithSmsConfigs = {
  clientId: 9,
  isActive: true,
  isPreviousKey: false,
  scopedKey: null,
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
  let find: jest.Mock<Promise<ClientWithSmsConfigs | null>, [string]>;
  let cache: ClientCache;
  let service: ClientService;

  beforeEach(() => {
    find = jest.fn<Promise<ClientWithSmsConfigs | null>, [string]>().mockResolvedValue(STORED);
    cache = new ClientCache({ maxBytes: 1_000_000 });
    cache.setLive(true);
    service = new ClientService({ findWithSmsConfigsByDigest: find } as unknown as GetClientRepository, cache);
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
    expect(find).toHaveBeenCalledWith(sha256Hex(secretKey), 'root');
  });

  it('should look a scoped key up among the scoped keys only, and a root key among the root keys', async () => {
    const scopedKey = generateScopedKey();
    await service.getAnswer(scopedKey);
    expect(find).toHaveBeenLastCalledWith(sha256Hex(scopedKey), 'scoped');
    const rootKey = generateSecretKey();
    await service.authenticate(rootKey);
    expect(find).toHaveBeenLastCalledWith(sha256Hex(rootKey), 'root');
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
      scopedKey: null,
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
      expect(service.cachedAnswer(secretKey, digest, '192.0.2.1')).toBeUndefined();
      const loaded = await service.loadAnswer(secretKey, digest, '192.0.2.1');
      expect(JSON.parse(loaded!).results.secretKey).toBe(secretKey);
      expect(service.cachedAnswer(secretKey, digest, '192.0.2.1')).toBe(loaded);

      find.mockResolvedValue({ ...STORED, isActive: false });
      const disabledKey = generateSecretKey();
      await expect(service.loadAnswer(disabledKey, sha256Hex(disabledKey), '192.0.2.1')).resolves.toBeNull();
      expect(service.cachedAnswer(disabledKey, sha256Hex(disabledKey), '192.0.2.1')).toBeNull();
      find.mockResolvedValue(null);
      const unknownKey = generateSecretKey();
      await expect(service.loadAnswer(unknownKey, sha256Hex(unknownKey), '192.0.2.1')).resolves.toBeNull();
      expect(service.cachedAnswer(unknownKey, sha256Hex(unknownKey), '192.0.2.1')).toBeNull();
    });

    it("should read the database once for concurrent misses of one key, the guards' included", async () => {
      const secretKey = generateSecretKey();
      const digest = sha256Hex(secretKey);
      const answer = deferredRead();
      const answers = Promise.all([
        service.loadAnswer(secretKey, digest, '192.0.2.1'),
        service.loadAnswer(secretKey, digest, '192.0.2.1'),
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
