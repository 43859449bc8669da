import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientCacheModule } from '../client-cache/client-cache.module';
import { DatabaseModule } from '../database/database.module';
import { ProviderHostApproval } from './provider-host-approval';
import { ProviderHostController } from './provider-host.controller';
import { ProviderHost } from './provider-host.entity';
import { ProviderHostRepository } from './provider-host.repository';
import { ProviderHostService } from './provider-host.service';

@Module({
  imports: [TypeOrmModule.forFeature([ProviderHost]), DatabaseModule, ClientCacheModule],
  controllers: [ProviderHostController],
  providers: [ProviderHostRepository, ProviderHostService, ProviderHostApproval],
  exports: [ProviderHostApproval],
})
export class ProviderHostModule {}
