import { randomBytes } from 'node:crypto';
import { sha256Hex as sha256 } from '../auth/digest';
import { EncryptionKey } from '../config/app-config';
import { RequestDigests } from '../crypto/request-digests';
import { SecretSealer } from '../crypto/secret-sealer';
import { Transactions } from '../database/transactions';
import { idempotentAnswerSealContext, idempotentRequestSealContext } from './idempotent-answer-seal-context';
import { IdempotentRequest, IdempotentRequestRepository } from './idempotent-request.repository';
import {
  CLAIM_MS,
  IdempotencyKeyReusedException,
  IdempotencyService,
  IdempotentRequestInProgressException,
  KEPT_MS,
  KeptSecretExpiredException,
} from './idempotency.service';

const SCOPE = 'client:7';
const KEY = 'retry-1';
const REQUEST = 'POST /api/sms-config/add\n{"providerName":"p","password":"correct horse battery staple"}';
const OTHER_REQUEST = 'POST /api/sms-config/add\n{"providerName":"p","password":"another password"}';
const k1: EncryptionKey = { id: 'k1', key: randomBytes(32) };
const k2: EncryptionKey = { id: 'k2', key: randomBytes(32) };

describe('IdempotencyService', () => {
  const sealer = new SecretSealer([k1]);
  const digests = new RequestDigests([k1]);
  const DIGEST = digests.digest(REQUEST).digest;
  let repository: jest.Mocked<Pick<IdempotentRequestRepository, 'claim' | 'find' | 'takeOver' | 'complete' | 'release' | 'forgetAnswer'>>;
  let service: IdempotencyService;

  const kept = (overrides: Partial<IdempotentRequest> = {}): IdempotentRequest => ({
    requestDigest: DIGEST,
    requestDigestKeyId: 'k1',
    requestSealed: sealer.seal(sha256(REQUEST), idempotentRequestSealContext(SCOPE, KEY)),
    claim: 'earlier-claim',
    claimedUntil: Date.now() + CLAIM_MS,
    statusCode: null,
    answerSealed: null,
    replayableUntil: null,
    expiresAt: Date.now() + KEPT_MS,
    ...overrides,
  });

  beforeEach(() => {
    repository = {
      claim: jest.fn().mockResolvedValue(true),
      find: jest.fn().mockResolvedValue(null),
      takeOver: jest.fn().mockResolvedValue(true),
      complete: jest.fn().mockResolvedValue(true),
      release: jest.fn().mockResolvedValue(undefined),
      forgetAnswer: jest.fn().mockResolvedValue(undefined),
    };
    service = new IdempotencyService(repository as unknown as IdempotentRequestRepository, sealer, {} as Transactions, digests);
  });
  const answered = (overrides: Partial<IdempotentRequest> = {}) =>
    kept({ statusCode: 200, answerSealed: sealer.seal('{"status":200}', idempotentAnswerSealContext(SCOPE, KEY)), ...overrides });
  const replayed = { kind: 'replay', statusCode: 200, answer: '{"status":200}' };

  it('should claim a new key for 1 minute and keep it for 24 h', async () => {
    const before = Date.now();
    const start = await service.start(SCOPE, KEY, REQUEST);
    expect(start).toEqual({ kind: 'claimed', claim: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const [, , , , claimedUntil, expiresAt] = repository.claim.mock.calls[0];
    expect(claimedUntil.getTime() - before).toBeGreaterThanOrEqual(CLAIM_MS);
    expect(expiresAt.getTime() - before).toBeGreaterThanOrEqual(KEPT_MS);
  });

  it('should keep the request as its HMAC under the first key, named by it, never as its plain SHA-256', async () => {
    await service.start(SCOPE, KEY, REQUEST);
    const [, , kept] = repository.claim.mock.calls[0];
    expect(kept).toEqual({ keyId: 'k1', digest: expect.stringMatching(/^[0-9a-f]{64}$/), sealed: expect.any(String) });
    expect(kept.digest).not.toBe(sha256(REQUEST));
  });

  it("should keep a sealed copy of the request's SHA-256, bound to its row, which does not show it", async () => {
    await service.start(SCOPE, KEY, REQUEST);
    const [, , { sealed }] = repository.claim.mock.calls[0];
    expect(sealed).toMatch(/^k1:v2:/);
    expect(sealed).not.toContain(sha256(REQUEST));
    expect(sealer.open(sealed, idempotentRequestSealContext(SCOPE, KEY))).toBe(sha256(REQUEST));
    expect(() => sealer.open(sealed, idempotentAnswerSealContext(SCOPE, KEY))).toThrow();
  });

  it('should replay a kept answer, opened from its seal', async () => {
    repository.claim.mockResolvedValue(false);
    repository.find.mockResolvedValue(answered());
    await expect(service.start(SCOPE, KEY, REQUEST)).resolves.toEqual(replayed);
  });

  it('should refuse another request under the key (422) whether it is answered or running', async () => {
    repository.claim.mockResolvedValue(false);
    for (const row of [answered(), kept()]) {
      repository.find.mockResolvedValue(row);
      await expect(service.start(SCOPE, KEY, OTHER_REQUEST)).rejects.toBeInstanceOf(IdempotencyKeyReusedException);
    }
  });

  it('should recognise a request kept under an older key once a new key is first', async () => {
    const rotated = new IdempotencyService(
      repository as unknown as IdempotentRequestRepository,
      sealer,
      {} as Transactions,
      new RequestDigests([k2, k1]),
    );
    repository.claim.mockResolvedValue(false);
    repository.find.mockResolvedValue(answered());
    await expect(rotated.start(SCOPE, KEY, REQUEST)).resolves.toEqual(replayed);
    await expect(rotated.start(SCOPE, KEY, OTHER_REQUEST)).rejects.toBeInstanceOf(IdempotencyKeyReusedException);
  });

  it('should recognise a request kept before digests were keyed by its plain SHA-256', async () => {
    repository.claim.mockResolvedValue(false);
    repository.find.mockResolvedValue(answered({ requestDigest: sha256(REQUEST), requestDigestKeyId: null, requestSealed: null }));
    await expect(service.start(SCOPE, KEY, REQUEST)).resolves.toEqual(replayed);
    await expect(service.start(SCOPE, KEY, OTHER_REQUEST)).rejects.toBeInstanceOf(IdempotencyKeyReusedException);
  });

  describe('a row whose digest is under a key no longer listed (k2 removed, its values resealed under k1)', () => {
    const underRemovedKey = (overrides: Partial<IdempotentRequest> = {}) =>
      answered({ requestDigest: new RequestDigests([k2]).digest(REQUEST).digest, requestDigestKeyId: 'k2', ...overrides });

    it('should recognise the request through its sealed SHA-256: the same one replays, another is refused (422)', async () => {
      repository.claim.mockResolvedValue(false);
      repository.find.mockResolvedValue(underRemovedKey());
      await expect(service.start(SCOPE, KEY, REQUEST)).resolves.toEqual(replayed);
      await expect(service.start(SCOPE, KEY, OTHER_REQUEST)).rejects.toBeInstanceOf(IdempotencyKeyReusedException);
    });

    it('should refuse (422) a row without the sealed copy, or whose copy does not open: the request cannot be recognised', async () => {
      repository.claim.mockResolvedValue(false);
      const stillUnderK2 = new SecretSealer([k2]).seal(sha256(REQUEST), idempotentRequestSealContext(SCOPE, KEY));
      const ofAnotherRow = sealer.seal(sha256(REQUEST), idempotentRequestSealContext(SCOPE, 'another-key'));
      for (const requestSealed of [null, stillUnderK2, ofAnotherRow]) {
        repository.find.mockResolvedValue(underRemovedKey({ requestSealed }));
        await expect(service.start(SCOPE, KEY, REQUEST)).rejects.toBeInstanceOf(IdempotencyKeyReusedException);
      }
    });
  });

  it('should refuse the same request while its claim holds (409), and take a lapsed claim over', async () => {
    repository.claim.mockResolvedValue(false);
    repository.find.mockResolvedValue(kept());
    await expect(service.start(SCOPE, KEY, REQUEST)).rejects.toBeInstanceOf(IdempotentRequestInProgressException);
    repository.find.mockResolvedValue(kept({ claimedUntil: Date.now() - 1 }));
    await expect(service.start(SCOPE, KEY, REQUEST)).resolves.toMatchObject({ kind: 'claimed' });
    expect(repository.takeOver).toHaveBeenCalledWith(SCOPE, KEY, 'earlier-claim', expect.any(String), expect.any(Date));
  });

  it('should give up with 409 when every take-over is lost to another request', async () => {
    repository.claim.mockResolvedValue(false);
    repository.find.mockResolvedValue(kept({ claimedUntil: Date.now() - 1 }));
    repository.takeOver.mockResolvedValue(false);
    await expect(service.start(SCOPE, KEY, REQUEST)).rejects.toBeInstanceOf(IdempotentRequestInProgressException);
    expect(repository.takeOver).toHaveBeenCalledTimes(3);
  });

  it('should remove an expired row and claim the key again, whatever its request was', async () => {
    repository.claim.mockResolvedValueOnce(false).mockResolvedValueOnce(true);
    repository.find.mockResolvedValue(kept({ requestDigest: 'b'.repeat(64), statusCode: 200, expiresAt: Date.now() - 1 }));
    await expect(service.start(SCOPE, KEY, REQUEST)).resolves.toMatchObject({ kind: 'claimed' });
    expect(repository.release).toHaveBeenCalledWith(SCOPE, KEY, 'earlier-claim');
  });

  it('should keep the answer sealed for its row, and refuse to finish a request whose claim was taken over', async () => {
    await service.finish(SCOPE, KEY, 'mine', 200, '{"secretKey":"sk_x"}');
    const [, , , status, sealed] = repository.complete.mock.calls[0];
    expect(status).toBe(200);
    expect(sealed).not.toContain('sk_x');
    expect(sealer.open(sealed, idempotentAnswerSealContext(SCOPE, KEY))).toBe('{"secretKey":"sk_x"}');
    repository.complete.mockResolvedValue(false);
    await expect(service.finish(SCOPE, KEY, 'mine', 200, '{}')).rejects.toBeInstanceOf(IdempotentRequestInProgressException);
  });

  it('should replay an answer holding a secret key within its window, and past it delete the secret and refuse (422)', async () => {
    repository.claim.mockResolvedValue(false);
    repository.find.mockResolvedValue(answered({ replayableUntil: Date.now() + 60_000 }));
    await expect(service.start(SCOPE, KEY, REQUEST)).resolves.toEqual(replayed);
    repository.find.mockResolvedValue(answered({ replayableUntil: Date.now() - 1 }));
    await expect(service.start(SCOPE, KEY, REQUEST)).rejects.toBeInstanceOf(KeptSecretExpiredException);
    expect(repository.forgetAnswer).toHaveBeenCalledWith(SCOPE, KEY, expect.any(Date), 422, expect.any(String));
    const refusal = repository.forgetAnswer.mock.calls[0][4];
    // What the previous release replays from the row: the refusal, not the secret.
    expect(sealer.open(refusal, idempotentAnswerSealContext(SCOPE, KEY))).toBe(
      '{"status":422,"error":"Idempotency-Key has expired for an answer holding a secret key"}',
    );
    // Once the sweeper replaced it: refused the same way, not replaced again, and another request is still a reuse.
    repository.forgetAnswer.mockClear();
    repository.find.mockResolvedValue(answered({ replayableUntil: Date.now() - 1, statusCode: 422, answerSealed: refusal }));
    await expect(service.start(SCOPE, KEY, REQUEST)).rejects.toBeInstanceOf(KeptSecretExpiredException);
    await expect(service.start(SCOPE, KEY, OTHER_REQUEST)).rejects.toBeInstanceOf(IdempotencyKeyReusedException);
    expect(repository.forgetAnswer).not.toHaveBeenCalled();
    expect(repository.release).not.toHaveBeenCalled();
  });

  it('should keep an answer holding a secret key for 10 minutes, and record each replay of it', async () => {
    const replays = jest.fn().mockResolvedValue(undefined);
    const reply = { status: jest.fn().mockReturnThis(), header: jest.fn().mockReturnThis() };
    const call = { scope: SCOPE, key: KEY, request: REQUEST, reply: reply as never };
    const withTransaction = new IdempotencyService(
      repository as unknown as IdempotentRequestRepository,
      sealer,
      { run: (work: () => Promise<unknown>) => work() } as unknown as Transactions,
      digests,
    );
    const before = Date.now();
    await withTransaction.once(call, () => Promise.resolve({ status: 200, results: { id: 3 } }), { replayed: replays });
    const replayableUntil = repository.complete.mock.calls[0][5] as Date;
    expect(replayableUntil.getTime() - before).toBeGreaterThanOrEqual(10 * 60_000);
    expect(replayableUntil.getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(replays).not.toHaveBeenCalled();
    repository.claim.mockResolvedValue(false);
    repository.find.mockResolvedValue(answered({ replayableUntil: replayableUntil.getTime() }));
    await expect(withTransaction.once(call, () => Promise.reject(new Error('not run again')), { replayed: replays })).resolves.toBe(
      '{"status":200}',
    );
    expect(replays).toHaveBeenCalledWith({ status: 200 });
  });

  it('should keep any other answer for as long as its row (no replay window)', async () => {
    await service.finish(SCOPE, KEY, 'mine', 200, '{}');
    expect(repository.complete.mock.calls[0][5]).toBeNull();
  });

  describe('keptBy: the answer kept by the work, in the transaction of its effect', () => {
    const reply = { status: jest.fn().mockReturnThis(), header: jest.fn().mockReturnThis() };
    const call = { scope: SCOPE, key: KEY, request: REQUEST, reply: reply as never };

    it('should open no transaction of its own and keep the answer when the work calls keep', async () => {
      const answer = { status: 200, results: { balance: 9 } };
      await expect(service.keptBy(call, async (keep) => (await keep!(answer), answer))).resolves.toBe(answer);
      const [scope, key, claim, statusCode, sealed] = repository.complete.mock.calls[0];
      expect([scope, key, claim, statusCode]).toEqual([SCOPE, KEY, expect.any(String), 200]);
      expect(sealer.open(sealed, idempotentAnswerSealContext(SCOPE, KEY))).toBe('{"status":200,"results":{"balance":9}}');
      expect(repository.release).not.toHaveBeenCalled();
    });

    it('should refuse keep when the claim was taken over, and give the claim back when the work fails', async () => {
      repository.complete.mockResolvedValue(false);
      const work = async (keep?: (answer: object) => Promise<void>) => (await keep!({ status: 200 }), { status: 200 });
      await expect(service.keptBy(call, work)).rejects.toBeInstanceOf(IdempotentRequestInProgressException);
      expect(repository.release).toHaveBeenCalledWith(SCOPE, KEY, expect.any(String));
    });

    it('should run the work without keep when no Idempotency-Key was sent', async () => {
      const work = jest.fn((keep?: unknown) => Promise.resolve(keep));
      await expect(service.keptBy(undefined, work)).resolves.toBeUndefined();
      expect(repository.claim).not.toHaveBeenCalled();
    });
  });
});
