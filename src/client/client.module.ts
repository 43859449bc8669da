import { Global, Module } from '@nestjs/common';
import { CLIENT_LOOKUP } from '../auth/client-lookup';
import { ClientCacheModule } from '../client-cache/client-cache.module';
import { DatabaseModule } from '../database/database.module';
import { ClientController } from './client.controller';
import { ClientRepository } from './client.repository';
import { ClientService } from './client.service';

/** Global for its CLIENT_LOOKUP: the SecretKeyGuard of every feature's routes finds clients through it. */
@Global()
@Module({
  imports: [DatabaseModule, ClientCacheModule],
  controllers: [ClientController],
  providers: [ClientService, ClientRepository, { provide: CLIENT_LOOKUP, useExisting: ClientService }],
  exports: [CLIENT_LOOKUP],
})
export class ClientModule {}
