import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A provider host the platform sends to, approved by an admin: route and resolve offer only configurations whose hosts are listed. */
@Entity('provider_host')
@Unique('UQ_provider_host_host', ['host'])
export class ProviderHost {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  /** A DNS name, `*.` and a name, or an IP address, as common/validation/provider-host.ts writes it (ASCII, lower case). */
  @Column({ name: 'host', type: 'varchar', length: 255, charset: 'ascii' })
  host!: string;

  @Column({ name: 'note', type: 'varchar', length: 200, nullable: true })
  note!: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
