import { Global, Module } from '@nestjs/common';
import { CLIENT_LOOKUP } from '../auth/client-lookup';
import { ClientCacheModule } from '../client-cache/client-cache.module';
import { AuditModule } from '../audit/audit.module';
import { DatabaseModule } from '../database/database.module';
import { ClientAnswers } from '../http/get-client-at-edge';
import { ClientAdminController } from './client-admin.controller';
import { ClientAdminService } from './client-admin.service';
import { ClientController } from './client.controller';
import { ClientRepository } from './client.repository';
import { ClientService } from './client.service';
import { SecretKeyController } from './secret-key.controller';

/** Global for its CLIENT_LOOKUP and ClientAnswers: every feature's SecretKeyGuard, and the edge, find clients through them. */
@Global()
@Module({
  imports: [DatabaseModule, ClientCacheModule, AuditModule],
  controllers: [ClientController, ClientAdminController, SecretKeyController],
  providers: [
    ClientService,
    ClientAdminService,
    ClientRepository,
    { provide: CLIENT_LOOKUP, useExisting: ClientService },
    { provide: ClientAnswers, useExisting: ClientService },
  ],
  exports: [CLIENT_LOOKUP, ClientAnswers],
})
export class ClientModule {}
