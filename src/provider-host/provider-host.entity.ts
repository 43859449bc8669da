import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

@Entity('provider_host')
@Unique('UQ_provider_host_host', ['host'])
export class ProviderHost {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  // In the canonical form of common/validation/provider-host.ts.
  @Column({ name: 'host', type: 'varchar', length: 255, charset: 'ascii' })
  host!: string;

  @Column({ name: 'note', type: 'varchar', length: 200, nullable: true })
  note!: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
