import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { BrokerConnectionModule } from '../broker-connection/broker-connection.module';
import { DatabaseModule } from '../database/database.module';
import { AppConfig } from '../config/app-config';
import { CacheInvalidationBus } from './cache-invalidation.bus';
import { ClientCache } from './client-cache';
import { ClientCacheInvalidation, ClientCacheInvalidator } from './client-cache-invalidator';

@Module({
  imports: [BrokerConnectionModule, DatabaseModule],
  providers: [
    {
      provide: ClientCache,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) =>
        new ClientCache({ maxBytes: config.get('clientCacheBytes', { infer: true }) }),
    },
    {
      provide: CacheInvalidationBus,
      inject: [AmqpConnection, ClientCache],
      useFactory: (amqp: AmqpConnection, cache: ClientCache) => new CacheInvalidationBus(amqp, cache),
    },
    { provide: ClientCacheInvalidation, useClass: ClientCacheInvalidator },
  ],
  exports: [ClientCache, ClientCacheInvalidation, CacheInvalidationBus],
})
export class ClientCacheModule {}
