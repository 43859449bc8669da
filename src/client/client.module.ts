import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { CLIENT_LOOKUP } from '../auth/client-lookup';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BrokerModule } from '../broker/broker.module';
import { AppConfig } from '../config/app-config';
import { ClientCache } from './client-cache';
import { ClientController } from './client.controller';
import { ClientEntity } from './client.entity';
import { ClientService } from './client.service';

/** Global for its CLIENT_LOOKUP: the SecretKeyGuard of every feature's routes finds clients through it. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ClientEntity]), BrokerModule],
  controllers: [ClientController],
  providers: [
    ClientService,
    { provide: CLIENT_LOOKUP, useExisting: ClientService },
    {
      provide: ClientCache,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) =>
        new ClientCache({ maxEntries: config.get('clientCacheMaxEntries', { infer: true }) }),
    },
  ],
  exports: [ClientService, ClientCache, CLIENT_LOOKUP],
})
export class ClientModule {}
