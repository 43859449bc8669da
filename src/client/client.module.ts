import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BrokerModule } from '../broker/broker.module';
import { AppConfig } from '../config/app-config';
import { CachedAnswerHook } from './cached-answer.hook';
import { ClientCache } from './client-cache';
import { ClientController } from './client.controller';
import { ClientEntity } from './client.entity';
import { ClientService } from './client.service';

@Module({
  imports: [TypeOrmModule.forFeature([ClientEntity]), BrokerModule],
  controllers: [ClientController],
  providers: [
    ClientService,
    CachedAnswerHook,
    {
      provide: ClientCache,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) =>
        new ClientCache({ maxEntries: config.get('clientCacheMaxEntries', { infer: true }) }),
    },
  ],
  exports: [ClientService, ClientCache],
})
export class ClientModule {}
