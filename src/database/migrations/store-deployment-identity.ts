import { randomBytes } from 'node:crypto';
import { QueryRunner } from 'typeorm';

/**
 * The deployment's identity, which invalidation messages carry so that deployments sharing a RabbitMQ vhost ignore
 * each other's: drawn at random once, never derived from DATABASE_URL (two deployments may name their databases
 * alike). Kept when present, so the step may run again.
 */
export async function storeDeploymentIdentity(queryRunner: QueryRunner): Promise<void> {
  const present = (await queryRunner.query('SELECT id FROM deployment')) as Array<{ id: string }>;
  if (present.length > 0) return;
  await queryRunner.query('INSERT INTO deployment (id) VALUES (?)', [randomBytes(16).toString('hex')]);
}
