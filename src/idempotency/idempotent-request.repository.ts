import { HttpStatus, Injectable } from '@nestjs/common';
import { In, IsNull, LessThanOrEqual, Not } from 'typeorm';
import { RequestDigest } from '../crypto/request-digests';
import { isDuplicateKeyError } from '../database/duplicate-key';
import { Transactions } from '../database/transactions';
import { IdempotentRequest as IdempotentRequestRow } from './idempotent-request.entity';

export interface KeptRequest extends RequestDigest {
  sealed: string;
}

export interface IdempotentRequest {
  requestDigest: string;
  requestDigestKeyId: string | null;
  requestSealed: string | null;
  claim: string;
  claimedUntil: number;
  statusCode: number | null;
  answerSealed: string | null;
  replayableUntil: number | null;
  expiresAt: number;
}

@Injectable()
export class IdempotentRequestRepository {
  constructor(private readonly transactions: Transactions) {}

  private get requests() {
    return this.transactions.manager.getRepository(IdempotentRequestRow);
  }

  // Committed at once, outside any transaction, so that other instances see the claim.
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
    return row === null ? null : keptOf(row);
  }

  // One read for the rows of a key under several scopes, by scope.
  async findEach(scopes: string[], key: string): Promise<Map<string, IdempotentRequest>> {
    const rows = await this.requests.findBy({ scope: In(scopes), idempotencyKey: key });
    return new Map(rows.map((row) => [row.scope, keptOf(row)]));
  }

  async takeOver(scope: string, key: string, abandonedClaim: string, claim: string, claimedUntil: Date): Promise<boolean> {
    return this.updateUnanswered(scope, key, abandonedClaim, { claim, claimedUntil });
  }

  // In the transaction of the request's effect, so that the answer is kept exactly when the effect is committed.
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

  async forgetAnswer(scope: string, key: string, now: Date, refusalStatus: number, refusalSealed: string): Promise<void> {
    await this.requests
      .createQueryBuilder()
      .update()
      .set({ statusCode: refusalStatus, answerSealed: refusalSealed })
      .where({ scope, idempotencyKey: key, replayableUntil: LessThanOrEqual(now), statusCode: Not(refusalStatus) })
      .updateEntity(false)
      .execute();
  }

  async findExpiredSecrets(now: Date, limit: number): Promise<Array<{ scope: string; key: string }>> {
    const expired = await this.requests.find({
      select: { scope: true, idempotencyKey: true },
      where: { replayableUntil: LessThanOrEqual(now), statusCode: Not(HttpStatus.UNPROCESSABLE_ENTITY) },
      order: { replayableUntil: 'ASC' },
      take: limit,
    });
    return expired.map(({ scope, idempotencyKey }) => ({ scope, key: idempotencyKey }));
  }

  async release(scope: string, key: string, claim: string): Promise<void> {
    await this.requests.delete({ scope, idempotencyKey: key, claim });
  }

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

function keptOf(row: IdempotentRequestRow): IdempotentRequest {
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
