import { Module } from '@nestjs/common';
import { BrokerConnectionModule } from '../broker-connection/broker-connection.module';
import { DatabaseModule } from '../database/database.module';
import { MetricsModule } from '../metrics/metrics.module';
import { DatabaseHealth } from './database-health';
import { GracefulShutdownService } from './graceful-shutdown.service';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { OpsServer } from './ops-server';

@Module({
  imports: [DatabaseModule, BrokerConnectionModule, MetricsModule],
  controllers: [HealthController],
  providers: [DatabaseHealth, HealthService, GracefulShutdownService, OpsServer],
  exports: [HealthService, OpsServer],
})
export class HealthModule {}
