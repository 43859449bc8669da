import { Module } from '@nestjs/common';
import { ClientCacheModule } from '../client-cache/client-cache.module';
import { DatabaseModule } from '../database/database.module';
import { SmsConfigController } from './sms-config.controller';
import { SmsConfigRepository } from './sms-config.repository';
import { SmsConfigService } from './sms-config.service';

@Module({
  imports: [DatabaseModule, ClientCacheModule],
  controllers: [SmsConfigController],
  providers: [SmsConfigService, SmsConfigRepository],
})
export class SmsConfigModule {}
