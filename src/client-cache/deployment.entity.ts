import { Entity, PrimaryColumn } from 'typeorm';

// One row, made by its migration: the random identity invalidation messages carry, so deployments sharing a vhost
// ignore each other's. Never derived from DATABASE_URL.
@Entity('deployment')
export class Deployment {
  @PrimaryColumn({ name: 'id', type: 'char', length: 32, charset: 'ascii' })
  id!: string;
}
