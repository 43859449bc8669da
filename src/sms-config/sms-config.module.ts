import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientCacheModule } from '../client-cache/client-cache.module';
import { DatabaseModule } from '../database/database.module';
import { ProviderHostModule } from '../provider-host/provider-host.module';
import { DestinationPrice } from './destination-price.entity';
import { DestinationPriceRepository } from './destination-price.repository';
import { CredentialResolutionController } from './credential-resolution.controller';
import { SmsConfigBudgetRepository } from './sms-config-budget.repository';
import { SmsConfigLifecycleController } from './sms-config-lifecycle.controller';
import { SmsConfigController } from './sms-config.controller';
import { SmsConfigRepository } from './sms-config.repository';
import { SmsConfigService } from './sms-config.service';
import { SmsConfig } from './sms-config.entity';
import { VerifyApiKeyIssuer } from './verify-api-key-issuer';

@Module({
  imports: [TypeOrmModule.forFeature([SmsConfig, DestinationPrice]), DatabaseModule, ClientCacheModule, ProviderHostModule],
  controllers: [SmsConfigController, CredentialResolutionController, SmsConfigLifecycleController],
  providers: [SmsConfigService, SmsConfigRepository, SmsConfigBudgetRepository, DestinationPriceRepository, VerifyApiKeyIssuer],
  exports: [VerifyApiKeyIssuer, SmsConfigRepository, DestinationPriceRepository],
})
export class SmsConfigModule {}
