import { ConflictException, HttpStatus, Injectable, Logger, UnprocessableEntityException } from '@nestjs/common';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../auth/digest';
import { RequestDigests } from '../crypto/request-digests';
import { SecretSealer, UnsealError } from '../crypto/secret-sealer';
import { Transactions } from '../database/transactions';
import { REPLAYED_HEADER } from './idempotency-key';
import { IdempotentCall } from './idempotent-call';
import { idempotentAnswerSealContext, idempotentRequestSealContext } from './idempotent-answer-seal-context';
import { IdempotentRequest, IdempotentRequestRepository, KeptRequest } from './idempotent-request.repository';
import { exactJson } from '../common/exact-amount';

// Far beyond any request: a claim still held past it belongs to an instance that died.
export const CLAIM_MS = 60_000;
export const KEPT_MS = 24 * 60 * 60 * 1000;
export const SECRET_KEPT_MS = 10 * 60 * 1000;
const ATTEMPTS = 3;

export type ReplayedAnswer = string;

// Keeps a request's answer, in the transaction of its effect: throws if the request's claim was taken over meanwhile.
export type KeepAnswer<T> = (answer: T) => Promise<void>;

export type IdempotentStart = { kind: 'replay'; statusCode: number; answer: string } | { kind: 'claimed'; claim: string };

export class IdempotencyKeyReusedException extends UnprocessableEntityException {
  constructor() {
    super('Idempotency-Key was used with a different request');
  }
}

export class KeptSecretExpiredException extends UnprocessableEntityException {
  constructor() {
    super('Idempotency-Key has expired for an answer holding a secret key');
  }
}

export interface HoldsSecretKey<T> {
  replayed(answer: T): Promise<void>;
}

export class IdempotentRequestInProgressException extends ConflictException {
  constructor() {
    super('A request with this Idempotency-Key is in progress');
  }
}

@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly requests: IdempotentRequestRepository,
    private readonly sealer: SecretSealer,
    private readonly transactions: Transactions,
    private readonly digests: RequestDigests,
  ) {}

  async once<T>(call: IdempotentCall | undefined, work: () => Promise<T>, secretKey?: HoldsSecretKey<T>): Promise<T | ReplayedAnswer> {
    if (call === undefined) return work();
    return this.claimed(
      call,
      (keep) =>
        this.transactions.run(async () => {
          const answer = await work();
          await keep(answer);
          return answer;
        }),
      secretKey,
    );
  }

  /**
   * As once(), for work that applies its effect in a transaction of its own choosing (reports taken in batches): it
   * calls `keep` with the answer inside that transaction, before it commits, and is refused if `keep` throws.
   */
  async keptBy<T>(call: IdempotentCall | undefined, work: (keep?: KeepAnswer<T>) => Promise<T>): Promise<T | ReplayedAnswer> {
    if (call === undefined) return work();
    return this.claimed(call, work);
  }

  private async claimed<T>(
    call: IdempotentCall,
    work: (keep: KeepAnswer<T>) => Promise<T>,
    secretKey?: HoldsSecretKey<T>,
  ): Promise<T | ReplayedAnswer> {
    const { key } = call;
    const kept = call.legacyScope === undefined ? undefined : await this.startKept(call.scope, call.legacyScope, key, call.request);
    const scope = kept?.scope ?? call.scope;
    const start = kept?.start ?? (await this.start(scope, key, call.request));
    if (start.kind === 'replay') {
      if (secretKey) await secretKey.replayed(JSON.parse(start.answer) as T);
      void call.reply.status(start.statusCode).header(REPLAYED_HEADER, 'true').header('content-type', 'application/json; charset=utf-8');
      return start.answer;
    }
    try {
      call.countWrite?.();
      return await work((answer) => {
        // The reply serializer is exactJson too, so the kept answer is the bytes the caller gets.
        const replayableUntil = secretKey ? new Date(Date.now() + SECRET_KEPT_MS) : null;
        return this.finish(scope, key, start.claim, HttpStatus.OK, exactJson(answer), replayableUntil);
      });
    } catch (error) {
      await this.abandon(scope, key, start.claim).catch((releaseError: Error) =>
        // The claim then lapses after CLAIM_MS, and a retry takes it over.
        this.logger.warn(`Idempotency-Key not given back after a failed request: ${releaseError.message}`),
      );
      throw error;
    }
  }

  async start(scope: string, key: string, request: string): Promise<IdempotentStart> {
    const keeping: KeptRequest = {
      ...this.digests.digest(request),
      sealed: this.sealer.seal(sha256Hex(request), idempotentRequestSealContext(scope, key)),
    };
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const claim = randomUUID();
      const now = Date.now();
      if (await this.requests.claim(scope, key, keeping, claim, new Date(now + CLAIM_MS), new Date(now + KEPT_MS))) {
        return { kind: 'claimed', claim };
      }
      const kept = await this.requests.find(scope, key);
      if (kept === null) continue;
      if (kept.expiresAt <= now) {
        await this.requests.release(scope, key, kept.claim);
        continue;
      }
      const started = await this.startFrom(scope, key, kept, request, claim, now);
      if (started !== undefined) return started;
    }
    throw new IdempotentRequestInProgressException();
  }

  // A row kept under the scope the previous release wrote (the key's whole digest) answers from it until it expires,
  // under that scope, which its seals bind. One read looks under both scopes, and answers a retry under the new one.
  private async startKept(
    scope: string,
    legacyScope: string,
    key: string,
    request: string,
  ): Promise<{ scope: string; start: IdempotentStart } | undefined> {
    const rows = await this.requests.findEach([scope, legacyScope], key);
    const now = Date.now();
    for (const keptScope of [legacyScope, scope]) {
      const kept = rows.get(keptScope);
      if (kept === undefined || kept.expiresAt <= now) continue;
      const start = await this.startFrom(keptScope, key, kept, request, randomUUID(), now);
      if (start !== undefined) return { scope: keptScope, start };
      if (keptScope === legacyScope) throw new IdempotentRequestInProgressException();
    }
    return undefined;
  }

  // undefined: the claim of an abandoned request was taken over by another instance first.
  private async startFrom(
    scope: string,
    key: string,
    kept: IdempotentRequest,
    request: string,
    claim: string,
    now: number,
  ): Promise<IdempotentStart | undefined> {
    if (!this.isSameRequest(scope, key, kept, request)) throw new IdempotencyKeyReusedException();
    if (kept.statusCode !== null) {
      const forgotten = kept.statusCode === Number(HttpStatus.UNPROCESSABLE_ENTITY);
      if (kept.replayableUntil !== null && (forgotten || kept.replayableUntil <= now)) {
        if (!forgotten) await this.forgetSecret(scope, key, new Date(now));
        throw new KeptSecretExpiredException();
      }
      return {
        kind: 'replay',
        statusCode: kept.statusCode,
        answer: this.sealer.open(kept.answerSealed!, idempotentAnswerSealContext(scope, key)),
      };
    }
    if (kept.claimedUntil > now) throw new IdempotentRequestInProgressException();
    if (await this.requests.takeOver(scope, key, kept.claim, claim, new Date(now + CLAIM_MS))) return { kind: 'claimed', claim };
    return undefined;
  }

  async finish(
    scope: string,
    key: string,
    claim: string,
    statusCode: number,
    answer: string,
    replayableUntil: Date | null = null,
  ): Promise<void> {
    const sealed = this.sealer.seal(answer, idempotentAnswerSealContext(scope, key));
    // This request outlived CLAIM_MS and its claim was taken over: its effect must not be committed twice.
    if (!(await this.requests.complete(scope, key, claim, statusCode, sealed, replayableUntil))) {
      throw new IdempotentRequestInProgressException();
    }
  }

  // The refusal replaces the answer, rather than the row going: the previous release, during a rolling deploy, replays
  // what is kept, and then answers the same 422 rather than the secret.
  async forgetExpiredSecrets(now: Date, limit: number): Promise<number> {
    const expired = await this.requests.findExpiredSecrets(now, limit);
    for (const { scope, key } of expired) await this.forgetSecret(scope, key, now);
    return expired.length;
  }

  private async forgetSecret(scope: string, key: string, now: Date): Promise<void> {
    const refusal = new KeptSecretExpiredException();
    const answer = JSON.stringify({ status: refusal.getStatus(), error: refusal.message });
    await this.requests.forgetAnswer(
      scope,
      key,
      now,
      refusal.getStatus(),
      this.sealer.seal(answer, idempotentAnswerSealContext(scope, key)),
    );
  }

  async abandon(scope: string, key: string, claim: string): Promise<void> {
    await this.requests.release(scope, key, claim);
  }

  // The cases, and why a row that cannot be checked is taken for a different request: docs/operations.md, Kept requests.
  private isSameRequest(scope: string, key: string, kept: IdempotentRequest, request: string): boolean {
    if (kept.requestDigestKeyId === null) return sameDigest(sha256Hex(request), kept.requestDigest);
    const digest = this.digests.digest(request, kept.requestDigestKeyId);
    if (digest !== null) return sameDigest(digest.digest, kept.requestDigest);
    const sealedSha256 = this.openRequestSealed(scope, key, kept.requestSealed);
    return sealedSha256 !== null && sameDigest(sha256Hex(request), sealedSha256);
  }

  private openRequestSealed(scope: string, key: string, requestSealed: string | null): string | null {
    if (requestSealed === null) return null;
    try {
      return this.sealer.open(requestSealed, idempotentRequestSealContext(scope, key));
    } catch (error) {
      if (error instanceof UnsealError) return null;
      throw error;
    }
  }
}

function sameDigest(a: string, b: string): boolean {
  const [left, right] = [Buffer.from(a, 'ascii'), Buffer.from(b, 'ascii')];
  return left.length === right.length && timingSafeEqual(left, right);
}
