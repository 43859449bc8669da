import { randomBytes } from 'node:crypto';
import { SecretSealer } from '../crypto/secret-sealer';
import { Transactions } from '../database/transactions';
import { idempotentAnswerSealContext } from './idempotent-answer-seal-context';
import { IdempotentRequest, IdempotentRequestRepository } from './idempotent-request.repository';
import {
  CLAIM_MS,
  IdempotencyKeyReusedException,
  IdempotencyService,
  IdempotentRequestInProgressException,
  KEPT_MS,
} from './idempotency.service';

const SCOPE = 'client:7';
const KEY = 'retry-1';
const DIGEST = 'a'.repeat(64);

describe('IdempotencyService', () => {
  const sealer = new SecretSealer([{ id: 'k1', key: randomBytes(32) }]);
  let repository: jest.Mocked<Pick<IdempotentRequestRepository, 'claim' | 'find' | 'takeOver' | 'complete' | 'release'>>;
  let service: IdempotencyService;

  const kept = (overrides: Partial<IdempotentRequest> = {}): IdempotentRequest => ({
    requestDigest: DIGEST,
    claim: 'earlier-claim',
    claimedUntil: Date.now() + CLAIM_MS,
    statusCode: null,
    answerSealed: null,
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
    };
    service = new IdempotencyService(repository as unknown as IdempotentRequestRepository, sealer, {} as Transactions);
  });

  it('should claim a new key for 1 minute and keep it for 24 h', async () => {
    const before = Date.now();
    const start = await service.start(SCOPE, KEY, DIGEST);
    expect(start).toEqual({ kind: 'claimed', claim: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const [, , , , claimedUntil, expiresAt] = repository.claim.mock.calls[0];
    expect(claimedUntil.getTime() - before).toBeGreaterThanOrEqual(CLAIM_MS);
    expect(expiresAt.getTime() - before).toBeGreaterThanOrEqual(KEPT_MS);
  });

  it('should replay a kept answer, opened from its seal', async () => {
    repository.claim.mockResolvedValue(false);
    repository.find.mockResolvedValue(
      kept({ statusCode: 200, answerSealed: sealer.seal('{"status":200}', idempotentAnswerSealContext(SCOPE, KEY)) }),
    );
    await expect(service.start(SCOPE, KEY, DIGEST)).resolves.toEqual({ kind: 'replay', statusCode: 200, answer: '{"status":200}' });
  });

  it('should refuse another request under the key (422) whether it is answered or running', async () => {
    repository.claim.mockResolvedValue(false);
    repository.find.mockResolvedValue(kept({ requestDigest: 'b'.repeat(64) }));
    await expect(service.start(SCOPE, KEY, DIGEST)).rejects.toBeInstanceOf(IdempotencyKeyReusedException);
  });

  it('should refuse the same request while its claim holds (409), and take a lapsed claim over', async () => {
    repository.claim.mockResolvedValue(false);
    repository.find.mockResolvedValue(kept());
    await expect(service.start(SCOPE, KEY, DIGEST)).rejects.toBeInstanceOf(IdempotentRequestInProgressException);
    repository.find.mockResolvedValue(kept({ claimedUntil: Date.now() - 1 }));
    await expect(service.start(SCOPE, KEY, DIGEST)).resolves.toMatchObject({ kind: 'claimed' });
    expect(repository.takeOver).toHaveBeenCalledWith(SCOPE, KEY, 'earlier-claim', expect.any(String), expect.any(Date));
  });

  it('should give up with 409 when every take-over is lost to another request', async () => {
    repository.claim.mockResolvedValue(false);
    repository.find.mockResolvedValue(kept({ claimedUntil: Date.now() - 1 }));
    repository.takeOver.mockResolvedValue(false);
    await expect(service.start(SCOPE, KEY, DIGEST)).rejects.toBeInstanceOf(IdempotentRequestInProgressException);
    expect(repository.takeOver).toHaveBeenCalledTimes(3);
  });

  it('should remove an expired row and claim the key again, whatever its request was', async () => {
    repository.claim.mockResolvedValueOnce(false).mockResolvedValueOnce(true);
    repository.find.mockResolvedValue(kept({ requestDigest: 'b'.repeat(64), statusCode: 200, expiresAt: Date.now() - 1 }));
    await expect(service.start(SCOPE, KEY, DIGEST)).resolves.toMatchObject({ kind: 'claimed' });
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
});
