import { Module } from '@nestjs/common';
import { BrokerModule } from '../broker/broker.module';
import { HealthController } from './health.controller';
import { GracefulShutdownService } from './graceful-shutdown.service';
import { HealthService } from './health.service';

@Module({
  imports: [BrokerModule],
  controllers: [HealthController],
  providers: [HealthService, GracefulShutdownService],
  exports: [HealthService],
})
export class HealthModule {}
