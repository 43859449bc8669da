import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BrokerConnectionModule } from '../broker-connection/broker-connection.module';
import { DatabaseModule } from '../database/database.module';
import { AuditRetention } from './audit-retention';
import { EventPublisher } from './event-publisher';
import { OutboxRelay } from './outbox-relay';
import { OutboxRepository } from './outbox.repository';
import { OutboxRelayLock } from './outbox-relay-lock.entity';

@Module({
  imports: [TypeOrmModule.forFeature([OutboxRelayLock]), BrokerConnectionModule, DatabaseModule],
  providers: [EventPublisher, OutboxRepository, OutboxRelay, AuditRetention],
  exports: [OutboxRepository],
})
export class EventsModule {}
