import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { KeyScope } from '../../auth/key-scopes';
import { Client } from '../client.entity';

// A client's scoped key (rk_…): what it may do, until when and from where. The key itself is kept only as its digest.
@Entity('client_key')
@Index('IDX_client_key_client', ['clientId'])
@Index('UQ_client_key_digest', ['keyDigest'], { unique: true })
export class ClientKey {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ name: 'client_id', type: 'int' })
  clientId!: number;

  @ManyToOne(() => Client, { onDelete: 'CASCADE', onUpdate: 'RESTRICT' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'FK_client_key_client' })
  client?: Client;

  @Column({ name: 'key_digest', type: 'char', length: 64, charset: 'ascii' })
  keyDigest!: string;

  // rk_ and the next 4 characters: enough to tell keys apart in a list, far too little to guess one.
  @Column({ name: 'key_start', type: 'varchar', length: 7, charset: 'ascii' })
  keyStart!: string;

  @Column({ name: 'name', type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'scopes', type: 'simple-json' })
  scopes!: KeyScope[];

  @Column({ name: 'expires_at', type: 'datetime', precision: 3, nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'allowed_sources', type: 'simple-json', nullable: true })
  allowedSources!: string[] | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'datetime', precision: 3, nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'last_used_from', type: 'varchar', length: 64, nullable: true })
  lastUsedFrom!: string | null;
}
