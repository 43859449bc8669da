import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { BrokerConnectionModule } from '../broker-connection/broker-connection.module';
import { DatabaseModule } from '../database/database.module';
import { EventPublisher } from './event-publisher';
import { OutboxRelay } from './outbox-relay';
import { OutboxRepository } from './outbox.repository';

/** Domain events: the audit entries that change something, published on RabbitMQ from the outbox (docs/events.md). */
@Module({
  imports: [AuditModule, BrokerConnectionModule, DatabaseModule],
  providers: [EventPublisher, OutboxRepository, OutboxRelay],
  exports: [OutboxRepository],
})
export class EventsModule {}
