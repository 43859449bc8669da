import { Module } from '@nestjs/common';
import { BrokerModule } from '../broker/broker.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

@Module({
  imports: [BrokerModule],
  controllers: [HealthController],
  providers: [HealthService],
  exports: [HealthService],
})
export class HealthModule {}
