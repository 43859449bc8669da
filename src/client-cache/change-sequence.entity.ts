import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

// One row per line a change sends on the invalidation bus, written in the change's transaction; pruned after an hour.
@Entity('change_sequence')
@Index('IDX_change_sequence_created_at', ['createdAt'])
export class ChangeSequenceEntry {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: number;

  // The bus's vocabulary: `key:<digest>`, `<digest>`, `provider-hosts`.
  @Column({ name: 'line', type: 'varchar', length: 80, charset: 'ascii' })
  line!: string;

  // The process that wrote it, which need not apply it again.
  @Column({ name: 'origin', type: 'char', length: 16, charset: 'ascii' })
  origin!: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
