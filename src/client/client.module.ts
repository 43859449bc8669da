import { Global, Module } from '@nestjs/common';
import { CLIENT_LOOKUP } from '../auth/client-lookup';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientCacheModule } from '../client-cache/client-cache.module';
import { ClientController } from './client.controller';
import { ClientEntity } from './client.entity';
import { ClientService } from './client.service';

/** Global for its CLIENT_LOOKUP: the SecretKeyGuard of every feature's routes finds clients through it. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ClientEntity]), ClientCacheModule],
  controllers: [ClientController],
  providers: [ClientService, { provide: CLIENT_LOOKUP, useExisting: ClientService }],
  exports: [CLIENT_LOOKUP],
})
export class ClientModule {}
