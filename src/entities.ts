import { AuditEvent } from './audit/audit-event.entity';
import { Client } from './client/client.entity';
import { OutboxRelayLock } from './events/outbox-relay-lock.entity';
import { IdempotentRequest } from './idempotency/idempotent-request.entity';
import { SmsConfig } from './sms-config/sms-config.entity';

/**
 * One entity per table: the schema's truth, which the migrations of both dialects must build (npm run migration:check).
 * For the DataSources built outside Nest (the TypeORM CLI, the schema scripts); in the application each module registers
 * its own with TypeOrmModule.forFeature, and a test holds the two to the same list.
 */
export const ENTITIES = [Client, SmsConfig, AuditEvent, IdempotentRequest, OutboxRelayLock];
