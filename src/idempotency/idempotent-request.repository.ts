import { HttpStatus, Injectable } from '@nestjs/common';
import { IsNull, LessThanOrEqual, Not } from 'typeorm';
import { RequestDigest } from '../crypto/request-digests';
import { isDuplicateKeyError } from '../database/duplicate-key';
import { Transactions } from '../database/transactions';
import { IdempotentRequest as IdempotentRequestRow } from './idempotent-request.entity';

/** How a request is kept when it claims its key: its digest under the first key, and its SHA-256 sealed. */
export interface KeptRequest extends RequestDigest {
  sealed: string;
}

/** A request kept under its Idempotency-Key: in progress (no status yet) or answered. */
export interface IdempotentRequest {
  requestDigest: string;
  /** The key whose subkey made requestDigest; null on a row kept before digests were keyed (a plain SHA-256). */
  requestDigestKeyId: string | null;
  /** The request's SHA-256, sealed; null on a row kept before it was. */
  requestSealed: string | null;
  claim: string;
  claimedUntil: number;
  statusCode: number | null;
  answerSealed: string | null;
  /** Until when an answer holding a new secret key may be replayed (epoch ms); null: until the row expires. */
  replayableUntil: number | null;
  expiresAt: number;
}

/** The Idempotency-Key store: the database is the store, so every instance sees every claim. */
@Injectable()
export class IdempotentRequestRepository {
  constructor(private readonly transactions: Transactions) {}

  private get requests() {
    return this.transactions.manager.getRepository(IdempotentRequestRow);
  }

  /** Claims the key for a request; false when a row for it exists already. Committed at once, outside any transaction. */
  async claim(scope: string, key: string, request: KeptRequest, claim: string, claimedUntil: Date, expiresAt: Date): Promise<boolean> {
    try {
      await this.requests
        .createQueryBuilder()
        .insert()
        .values({
          scope,
          idempotencyKey: key,
          requestDigest: request.digest,
          requestDigestKeyId: request.keyId,
          requestSealed: request.sealed,
          claim,
          claimedUntil,
          expiresAt,
        })
        .updateEntity(false)
        .execute();
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async find(scope: string, key: string): Promise<IdempotentRequest | null> {
    const row = await this.requests.findOneBy({ scope, idempotencyKey: key });
    if (row === null) return null;
    return {
      requestDigest: row.requestDigest,
      requestDigestKeyId: row.requestDigestKeyId,
      requestSealed: row.requestSealed,
      claim: row.claim,
      claimedUntil: row.claimedUntil.getTime(),
      statusCode: row.statusCode,
      answerSealed: row.answerSealed,
      replayableUntil: row.replayableUntil?.getTime() ?? null,
      expiresAt: row.expiresAt.getTime(),
    };
  }

  /** Takes over a claim its request abandoned (its instance died); false when someone else changed the row first. */
  async takeOver(scope: string, key: string, abandonedClaim: string, claim: string, claimedUntil: Date): Promise<boolean> {
    return this.updateUnanswered(scope, key, abandonedClaim, { claim, claimedUntil });
  }

  /** Keeps the answer, in the transaction of the request's effect; false when the claim is no longer this request's. */
  async complete(
    scope: string,
    key: string,
    claim: string,
    statusCode: number,
    answerSealed: string,
    replayableUntil: Date | null,
  ): Promise<boolean> {
    return this.updateUnanswered(scope, key, claim, { statusCode, answerSealed, replayableUntil });
  }

  /**
   * Replaces the kept answer of a row past its replay window by `refusalSealed` (its status `refusalStatus`); the row
   * stays, so the key is not run again.
   */
  async forgetAnswer(scope: string, key: string, now: Date, refusalStatus: number, refusalSealed: string): Promise<void> {
    await this.requests
      .createQueryBuilder()
      .update()
      .set({ statusCode: refusalStatus, answerSealed: refusalSealed })
      .where({ scope, idempotencyKey: key, replayableUntil: LessThanOrEqual(now), statusCode: Not(refusalStatus) })
      .updateEntity(false)
      .execute();
  }

  /** Up to `limit` rows whose kept answer holds a secret key past its replay window. */
  async findExpiredSecrets(now: Date, limit: number): Promise<Array<{ scope: string; key: string }>> {
    const expired = await this.requests.find({
      select: { scope: true, idempotencyKey: true },
      where: { replayableUntil: LessThanOrEqual(now), statusCode: Not(HttpStatus.UNPROCESSABLE_ENTITY) },
      order: { replayableUntil: 'ASC' },
      take: limit,
    });
    return expired.map(({ scope, idempotencyKey }) => ({ scope, key: idempotencyKey }));
  }

  /** Gives the key back after a request that failed (only 2xx answers are kept), or removes an expired row. */
  async release(scope: string, key: string, claim: string): Promise<void> {
    await this.requests.delete({ scope, idempotencyKey: key, claim });
  }

  /** Removes up to `limit` expired rows; answers how many. */
  async deleteExpired(now: Date, limit: number): Promise<number> {
    const expired = await this.requests.find({
      select: { scope: true, idempotencyKey: true },
      where: { expiresAt: LessThanOrEqual(now) },
      order: { expiresAt: 'ASC' },
      take: limit,
    });
    for (const { scope, idempotencyKey } of expired) {
      await this.requests.delete({ scope, idempotencyKey, expiresAt: LessThanOrEqual(now) });
    }
    return expired.length;
  }

  /** Changes the row while `claim` holds it and no answer is kept; false when that is no longer so. */
  private async updateUnanswered(
    scope: string,
    key: string,
    claim: string,
    changes: Partial<Pick<IdempotentRequestRow, 'claim' | 'claimedUntil' | 'statusCode' | 'answerSealed' | 'replayableUntil'>>,
  ): Promise<boolean> {
    const { affected } = await this.requests
      .createQueryBuilder()
      .update()
      .set(changes)
      .where({ scope, idempotencyKey: key, claim, statusCode: IsNull() })
      .updateEntity(false)
      .execute();
    return affected === 1;
  }
}
