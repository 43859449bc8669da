import { Injectable } from '@nestjs/common';
import { isDuplicateKeyError } from '../database/duplicate-key';
import { SqlExecutor } from '../database/sql-executor';
import { epochMsOf, sqlTimestamp } from '../database/timestamps';

/** A request kept under its Idempotency-Key: in progress (no status yet) or answered. */
export interface IdempotentRequest {
  requestDigest: string;
  claim: string;
  claimedUntil: number;
  statusCode: number | null;
  answerSealed: string | null;
  expiresAt: number;
}

interface IdempotentRequestRow {
  requestDigest: string;
  claim: string;
  claimedUntil: Date | string;
  statusCode: number | null;
  answerSealed: string | null;
  expiresAt: Date | string;
}

const FIND_SQL = `SELECT request_digest AS requestDigest, claim, claimed_until AS claimedUntil, status_code AS statusCode,
  answer_sealed AS answerSealed, expires_at AS expiresAt FROM idempotent_request WHERE scope = ? AND idempotency_key = ?`;

/** Every SQL string of the Idempotency-Key store: the database is the store, so every instance sees every claim. */
@Injectable()
export class IdempotentRequestRepository {
  constructor(private readonly sql: SqlExecutor) {}

  /** Claims the key for a request; false when a row for it exists already. Committed at once, outside any transaction. */
  async claim(scope: string, key: string, requestDigest: string, claim: string, claimedUntil: Date, expiresAt: Date): Promise<boolean> {
    try {
      await this.sql.execute(
        `INSERT INTO idempotent_request (scope, idempotency_key, request_digest, claim, claimed_until, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
        [scope, key, requestDigest, claim, sqlTimestamp(claimedUntil), sqlTimestamp(expiresAt)],
      );
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async find(scope: string, key: string): Promise<IdempotentRequest | null> {
    const [row] = await this.sql.query<IdempotentRequestRow>(FIND_SQL, [scope, key]);
    if (row === undefined) return null;
    return {
      requestDigest: row.requestDigest,
      claim: row.claim,
      claimedUntil: epochMsOf(row.claimedUntil)!,
      statusCode: row.statusCode === null ? null : Number(row.statusCode),
      answerSealed: row.answerSealed,
      expiresAt: epochMsOf(row.expiresAt)!,
    };
  }

  /** Takes over a claim its request abandoned (its instance died); false when someone else changed the row first. */
  async takeOver(scope: string, key: string, abandonedClaim: string, claim: string, claimedUntil: Date): Promise<boolean> {
    const { affectedRows } = await this.sql.execute(
      'UPDATE idempotent_request SET claim = ?, claimed_until = ? WHERE scope = ? AND idempotency_key = ? AND claim = ? AND status_code IS NULL',
      [claim, sqlTimestamp(claimedUntil), scope, key, abandonedClaim],
    );
    return affectedRows === 1;
  }

  /** Keeps the answer, in the transaction of the request's effect; false when the claim is no longer this request's. */
  async complete(scope: string, key: string, claim: string, statusCode: number, answerSealed: string): Promise<boolean> {
    const { affectedRows } = await this.sql.execute(
      'UPDATE idempotent_request SET status_code = ?, answer_sealed = ? WHERE scope = ? AND idempotency_key = ? AND claim = ? AND status_code IS NULL',
      [statusCode, answerSealed, scope, key, claim],
    );
    return affectedRows === 1;
  }

  /** Gives the key back after a request that failed (only 2xx answers are kept), or removes an expired row. */
  async release(scope: string, key: string, claim: string): Promise<void> {
    await this.sql.execute('DELETE FROM idempotent_request WHERE scope = ? AND idempotency_key = ? AND claim = ?', [scope, key, claim]);
  }

  /** Removes up to `limit` expired rows; answers how many. */
  async deleteExpired(now: Date, limit: number): Promise<number> {
    const expired = await this.sql.query<{ scope: string; idempotencyKey: string }>(
      // limit is a checked integer: written into the text, as MySQL prepares LIMIT placeholders only for some types.
      `SELECT scope, idempotency_key AS idempotencyKey FROM idempotent_request WHERE expires_at <= ? ORDER BY expires_at LIMIT ${Math.trunc(limit)}`,
      [sqlTimestamp(now)],
    );
    for (const { scope, idempotencyKey } of expired) {
      await this.sql.execute('DELETE FROM idempotent_request WHERE scope = ? AND idempotency_key = ? AND expires_at <= ?', [
        scope,
        idempotencyKey,
        sqlTimestamp(now),
      ]);
    }
    return expired.length;
  }
}
