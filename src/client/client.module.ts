import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CLIENT_LOOKUP } from '../auth/client-lookup';
import { GetClientColumns } from '../client-cache/client-cache-invalidator';
import { ClientCacheModule } from '../client-cache/client-cache.module';
import { DatabaseModule } from '../database/database.module';
import { EdgeAnswer } from '../http/edge-answer';
import { ClientAdminController } from './client-admin.controller';
import { ClientAdminService } from './client-admin.service';
import { ClientController } from './client.controller';
import { ClientRepository } from './client.repository';
import { ClientService } from './client.service';
import { GetClientAtEdge } from './get-client-at-edge';
import { GetClientRepository } from './get-client.repository';
import { SecretKeyController } from './secret-key.controller';
import { Client } from './client.entity';
import { ClientKeyAdminController, ClientKeyController } from './keys/client-key.controller';
import { ClientKey } from './keys/client-key.entity';
import { ClientKeyRepository } from './keys/client-key.repository';
import { ClientKeyService } from './keys/client-key.service';

// Global: every feature's SecretKeyGuard finds clients through CLIENT_LOOKUP, the edge registers EdgeAnswer, and the
// cache's invalidation decides what a write drops by GetClientColumns.
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Client, ClientKey]), DatabaseModule, ClientCacheModule],
  controllers: [ClientController, ClientAdminController, SecretKeyController, ClientKeyController, ClientKeyAdminController],
  providers: [
    ClientService,
    ClientAdminService,
    ClientRepository,
    ClientKeyService,
    ClientKeyRepository,
    GetClientRepository,
    { provide: CLIENT_LOOKUP, useExisting: ClientService },
    { provide: GetClientColumns, useExisting: GetClientRepository },
    { provide: EdgeAnswer, useClass: GetClientAtEdge },
  ],
  exports: [CLIENT_LOOKUP, EdgeAnswer, GetClientColumns],
})
export class ClientModule {}
