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

/** How long a request holds its key before another may take it over (its instance died): far beyond any request. */
export const CLAIM_MS = 60_000;
/** How long an answer is kept for replay. */
export const KEPT_MS = 24 * 60 * 60 * 1000;
/** How long an answer holding a new secret key is replayed; then the secret is deleted, and a retry refused (422). */
export const SECRET_KEPT_MS = 10 * 60 * 1000;
/** Rounds of claim, read and take-over before a request gives up (each round lost to a request that changed the row). */
const ATTEMPTS = 3;

/** A kept answer given again: the JSON text the first request was answered with. */
export type ReplayedAnswer = string;

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

/**
 * A route whose answer holds a new secret key (add client, both rotations): its answer is replayed for SECRET_KEPT_MS
 * only, and each replay is recorded (client.secret-key.replayed) before the answer is given again.
 */
export interface HoldsSecretKey<T> {
  replayed(answer: T): Promise<void>;
}

export class IdempotentRequestInProgressException extends ConflictException {
  constructor() {
    super('A request with this Idempotency-Key is in progress');
  }
}

/**
 * The Idempotency-Key rules (IETF httpapi draft): a key is claimed in the database before its request runs, so two
 * instances never run it twice; its answer is kept, sealed, in the request's own transaction, and given again to a
 * retry with the same request; a different request under the key is refused (422), one while it runs too (409).
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly requests: IdempotentRequestRepository,
    private readonly sealer: SecretSealer,
    private readonly transactions: Transactions,
    private readonly digests: RequestDigests,
  ) {}

  /**
   * Runs `work` at most once per Idempotency-Key: without one, just runs it; with one, runs it in one transaction with
   * the keeping of its answer, or answers what the first request with the key answered (`Idempotent-Replayed: true`).
   */
  async once<T>(call: IdempotentCall | undefined, work: () => Promise<T>, secretKey?: HoldsSecretKey<T>): Promise<T | ReplayedAnswer> {
    if (call === undefined) return work();
    const { scope, key } = call;
    const start = await this.start(scope, key, call.request);
    if (start.kind === 'replay') {
      if (secretKey) await secretKey.replayed(JSON.parse(start.answer) as T);
      void call.reply.status(start.statusCode).header(REPLAYED_HEADER, 'true').header('content-type', 'application/json; charset=utf-8');
      return start.answer;
    }
    try {
      call.countWrite?.();
      return await this.transactions.run(async () => {
        const answer = await work();
        // Fastify sends an object as exactJson writes it (registerEdge): the kept answer is the bytes the caller gets.
        const replayableUntil = secretKey ? new Date(Date.now() + SECRET_KEPT_MS) : null;
        await this.finish(scope, key, start.claim, HttpStatus.OK, exactJson(answer), replayableUntil);
        return answer;
      });
    } catch (error) {
      await this.abandon(scope, key, start.claim).catch((releaseError: Error) =>
        // The claim then lapses after CLAIM_MS, and a retry takes it over.
        this.logger.warn(`Idempotency-Key not given back after a failed request: ${releaseError.message}`),
      );
      throw error;
    }
  }

  /**
   * Claims the key for this request (`request`: method, path and body, kept only as its digest under the first key and
   * its SHA-256 sealed), or answers what the earlier request with it answered.
   */
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
      if (!this.isSameRequest(scope, key, kept, request)) throw new IdempotencyKeyReusedException();
      if (kept.statusCode !== null) {
        const forgotten = kept.statusCode === Number(HttpStatus.UNPROCESSABLE_ENTITY);
        if (kept.replayableUntil !== null && (forgotten || kept.replayableUntil <= now)) {
          // Past its window, before the sweeper came: the secret goes now, and the request is not run again.
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
    }
    throw new IdempotentRequestInProgressException();
  }

  /** Keeps the answer; inside the request's transaction, so the answer is kept exactly when its effect is committed. */
  async finish(
    scope: string,
    key: string,
    claim: string,
    statusCode: number,
    answer: string,
    replayableUntil: Date | null = null,
  ): Promise<void> {
    const sealed = this.sealer.seal(answer, idempotentAnswerSealContext(scope, key));
    // The claim was taken over (this request outlived CLAIM_MS): the effect must not be committed twice.
    if (!(await this.requests.complete(scope, key, claim, statusCode, sealed, replayableUntil))) {
      throw new IdempotentRequestInProgressException();
    }
  }

  /**
   * Replaces kept answers past their window with the refusal, up to `limit`; answers how many. The previous release,
   * during a rolling deploy, replays what is kept: it then answers the same 422 rather than the secret.
   */
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

  /** Gives the key back after a request that did not succeed: it may be retried with the same key. */
  async abandon(scope: string, key: string, claim: string): Promise<void> {
    await this.requests.release(scope, key, claim);
  }

  /**
   * Whether the kept row was made for this request: its digest made again under the key that made it (so a new first
   * key still recognises it); on a row kept before digests were keyed, the plain SHA-256 it holds until it expires; and
   * once ENCRYPTION_KEYS no longer lists the digest's key, the SHA-256 sealed beside it, which reseal moved to a listed
   * key. A row without that copy (written by the previous release) or whose copy does not open (reseal did not move it)
   * cannot be checked: the request is taken for a different one (422), since running it would do twice what may be the
   * same request, and replaying would answer one not known to be.
   */
  private isSameRequest(scope: string, key: string, kept: IdempotentRequest, request: string): boolean {
    if (kept.requestDigestKeyId === null) return sameDigest(sha256Hex(request), kept.requestDigest);
    const digest = this.digests.digest(request, kept.requestDigestKeyId);
    if (digest !== null) return sameDigest(digest.digest, kept.requestDigest);
    const sealedSha256 = this.openRequestSealed(scope, key, kept.requestSealed);
    return sealedSha256 !== null && sameDigest(sha256Hex(request), sealedSha256);
  }

  /** The kept request's SHA-256 from its sealed copy; null when it has none, or the copy opens under no listed key. */
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

/** Compares two hex digests in constant time: how long it takes says nothing of how much of one the other matches. */
function sameDigest(a: string, b: string): boolean {
  const [left, right] = [Buffer.from(a, 'ascii'), Buffer.from(b, 'ascii')];
  return left.length === right.length && timingSafeEqual(left, right);
}
