import { Module } from '@nestjs/common';
import { ClientModule } from '../client/client.module';
import { SmsConfigController } from './sms-config.controller';
import { SmsConfigService } from './sms-config.service';

@Module({
  imports: [ClientModule],
  controllers: [SmsConfigController],
  providers: [SmsConfigService],
})
export class SmsConfigModule {}
