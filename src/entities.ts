import { DataSource } from 'typeorm';
import { metadataWithoutConnecting } from './database/typeorm-gaps';
import { AuditEvent } from './audit/audit-event.entity';
import { ChangeSequenceEntry } from './client-cache/change-sequence.entity';
import { Deployment } from './client-cache/deployment.entity';
import { Client } from './client/client.entity';
import { ClientKey } from './client/keys/client-key.entity';
import { OutboxRelayLock } from './events/outbox-relay-lock.entity';
import { IdempotentRequest } from './idempotency/idempotent-request.entity';
import { ProviderHost } from './provider-host/provider-host.entity';
import { DeliveryCount } from './delivery-signals/delivery-count.entity';
import { PumpingBaseline } from './delivery-signals/pumping-baseline.entity';
import { PumpingCount } from './delivery-signals/pumping-count.entity';
import { PumpingRange } from './delivery-signals/pumping-range.entity';
import { DestinationPrice } from './sms-config/destination-price.entity';
import { SmsConfig } from './sms-config/sms-config.entity';

// For DataSources built outside Nest (the TypeORM CLI, the schema scripts); a test holds it to the modules' own lists.
export const ENTITIES = [
  Client,
  ClientKey,
  SmsConfig,
  DestinationPrice,
  AuditEvent,
  IdempotentRequest,
  OutboxRelayLock,
  ProviderHost,
  ChangeSequenceEntry,
  Deployment,
  DeliveryCount,
  PumpingCount,
  PumpingBaseline,
  PumpingRange,
];

export function mysqlMetadataOnly(): Promise<DataSource> {
  return metadataWithoutConnecting(new DataSource({ type: 'mysql', database: 'registry', entities: ENTITIES }));
}
