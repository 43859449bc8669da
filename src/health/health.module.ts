import { Module } from '@nestjs/common';
import { BrokerModule } from '../broker/broker.module';
import { DatabaseModule } from '../database/database.module';
import { HealthController } from './health.controller';
import { GracefulShutdownService } from './graceful-shutdown.service';
import { HealthService } from './health.service';

@Module({
  imports: [DatabaseModule, BrokerModule],
  controllers: [HealthController],
  providers: [HealthService, GracefulShutdownService],
  exports: [HealthService],
})
export class HealthModule {}
