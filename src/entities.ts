import { DataSource } from 'typeorm';
import { AuditEvent } from './audit/audit-event.entity';
import { Client } from './client/client.entity';
import { OutboxRelayLock } from './events/outbox-relay-lock.entity';
import { IdempotentRequest } from './idempotency/idempotent-request.entity';
import { ProviderHost } from './provider-host/provider-host.entity';
import { SmsConfig } from './sms-config/sms-config.entity';

/**
 * One entity per table: the schema's truth, which the migrations of both dialects must build (npm run migration:check).
 * For the DataSources built outside Nest (the TypeORM CLI, the schema scripts); in the application each module registers
 * its own with TypeOrmModule.forFeature, and a test holds the two to the same list.
 */
export const ENTITIES = [Client, SmsConfig, AuditEvent, IdempotentRequest, OutboxRelayLock, ProviderHost];

/**
 * A MySQL DataSource with the entities' metadata built and no connection: for unit tests of a class that writes SQL
 * from that metadata (SqlNames).
 */
export async function mysqlMetadataOnly(): Promise<DataSource> {
  const dataSource = new DataSource({ type: 'mysql', database: 'registry', entities: ENTITIES });
  // What initialize() does after connecting; protected, as TypeORM builds it only for a connected source.
  await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  return dataSource;
}
