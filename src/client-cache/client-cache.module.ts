import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BrokerConnectionModule } from '../broker-connection/broker-connection.module';
import { DatabaseModule } from '../database/database.module';
import { MonotonicClock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { CacheInvalidationBus } from './cache-invalidation.bus';
import { ChangeSequence } from './change-sequence';
import { ChangeSequenceEntry } from './change-sequence.entity';
import { ChangeSequencePruner } from './change-sequence-pruner';
import { ChangeSequenceRepository } from './change-sequence.repository';
import { ClientCache } from './client-cache';
import { ClientCacheInvalidation, ClientCacheInvalidator } from './client-cache-invalidator';
import { Deployment } from './deployment.entity';
import { DeploymentRepository } from './deployment.repository';

@Module({
  imports: [TypeOrmModule.forFeature([ChangeSequenceEntry, Deployment]), BrokerConnectionModule, DatabaseModule],
  providers: [
    {
      provide: ClientCache,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) =>
        new ClientCache({ maxBytes: config.get('clientCacheBytes', { infer: true }) }),
    },
    {
      provide: CacheInvalidationBus,
      inject: [AmqpConnection, ClientCache, DeploymentRepository],
      useFactory: (amqp: AmqpConnection, cache: ClientCache, deployments: DeploymentRepository) =>
        new CacheInvalidationBus(amqp, cache, () => deployments.identity()),
    },
    {
      provide: ChangeSequence,
      inject: [ChangeSequenceRepository, CacheInvalidationBus, MonotonicClock],
      useFactory: (repository: ChangeSequenceRepository, bus: CacheInvalidationBus, clock: MonotonicClock) =>
        new ChangeSequence(repository, bus, { now: () => clock.now() }),
    },
    ChangeSequenceRepository,
    ChangeSequencePruner,
    DeploymentRepository,
    { provide: ClientCacheInvalidation, useClass: ClientCacheInvalidator },
  ],
  exports: [ClientCache, ClientCacheInvalidation, CacheInvalidationBus],
})
export class ClientCacheModule {}
