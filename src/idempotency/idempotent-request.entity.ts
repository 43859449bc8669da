import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('idempotent_request')
@Index('IDX_idempotent_request_expires_at', ['expiresAt'])
@Index('IDX_idempotent_request_replayable_until', ['replayableUntil'])
export class IdempotentRequest {
  @PrimaryColumn({ name: 'scope', type: 'varchar', length: 80, charset: 'ascii' })
  scope!: string;

  // Keys differing only in case are different keys.
  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: 255, charset: 'ascii', collation: 'ascii_bin' })
  idempotencyKey!: string;

  @Column({ name: 'request_digest', type: 'char', length: 64, charset: 'ascii' })
  requestDigest!: string;

  // Null on rows kept before digests were keyed: requestDigest is then a plain SHA-256.
  @Column({ name: 'request_digest_key_id', type: 'varchar', length: 32, charset: 'ascii', nullable: true })
  requestDigestKeyId!: string | null;

  // Reseal cannot make the HMAC again without the request, but can move this copy to a listed key.
  @Column({ name: 'request_sealed', type: 'text', nullable: true })
  requestSealed!: string | null;

  @Column({ name: 'claim', type: 'char', length: 36, charset: 'ascii' })
  claim!: string;

  @Column({ name: 'claimed_until', type: 'datetime', precision: 3 })
  claimedUntil!: Date;

  @Column({ name: 'status_code', type: 'smallint', nullable: true })
  statusCode!: number | null;

  @Column({ name: 'answer_sealed', type: 'mediumtext', nullable: true })
  answerSealed!: string | null;

  @Column({ name: 'replayable_until', type: 'datetime', precision: 3, nullable: true })
  replayableUntil!: Date | null;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt!: Date;
}
