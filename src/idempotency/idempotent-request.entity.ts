import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A request kept under its Idempotency-Key: claimed while it runs, then its answer (sealed) until it expires. */
@Entity('idempotent_request')
@Index('IDX_idempotent_request_expires_at', ['expiresAt'])
@Index('IDX_idempotent_request_replayable_until', ['replayableUntil'])
export class IdempotentRequest {
  @PrimaryColumn({ name: 'scope', type: 'varchar', length: 80, charset: 'ascii' })
  scope!: string;

  /** Compared byte for byte: keys differing only in case are different keys. */
  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: 255, charset: 'ascii', collation: 'ascii_bin' })
  idempotencyKey!: string;

  /** HMAC-SHA256 (hex) of the request under the idempotency subkey of `requestDigestKeyId`. */
  @Column({ name: 'request_digest', type: 'char', length: 64, charset: 'ascii' })
  requestDigest!: string;

  /** The encryption key whose subkey made requestDigest; null on rows kept before it was keyed (a plain SHA-256). */
  @Column({ name: 'request_digest_key_id', type: 'varchar', length: 32, charset: 'ascii', nullable: true })
  requestDigestKeyId!: string | null;

  /**
   * The request's SHA-256 (hex), sealed: what recognises it once requestDigestKeyId is no longer listed, since reseal
   * moves it to the first key as it moves every sealed value, and cannot make the HMAC again without the request.
   */
  @Column({ name: 'request_sealed', type: 'text', nullable: true })
  requestSealed!: string | null;

  @Column({ name: 'claim', type: 'char', length: 36, charset: 'ascii' })
  claim!: string;

  @Column({ name: 'claimed_until', type: 'datetime', precision: 3 })
  claimedUntil!: Date;

  @Column({ name: 'status_code', type: 'smallint', nullable: true })
  statusCode!: number | null;

  /** Null once an answer holding a secret key is past its replay window: the secret is not kept beyond it. */
  @Column({ name: 'answer_sealed', type: 'mediumtext', nullable: true })
  answerSealed!: string | null;

  /** Until when an answer holding a new secret key may be replayed (10 minutes); null: as long as the row is kept. */
  @Column({ name: 'replayable_until', type: 'datetime', precision: 3, nullable: true })
  replayableUntil!: Date | null;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt!: Date;
}
