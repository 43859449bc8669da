import { Module } from '@nestjs/common';
import { ClientCacheModule } from '../client-cache/client-cache.module';
import { SmsConfigController } from './sms-config.controller';
import { SmsConfigService } from './sms-config.service';

@Module({
  imports: [ClientCacheModule],
  controllers: [SmsConfigController],
  providers: [SmsConfigService],
})
export class SmsConfigModule {}
