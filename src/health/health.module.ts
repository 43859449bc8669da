import { Global, Module } from '@nestjs/common';
import { BrokerConnectionModule } from '../broker-connection/broker-connection.module';
import { DatabaseModule } from '../database/database.module';
import { DatabaseHealth } from './database-health';
import { GracefulShutdownService } from './graceful-shutdown.service';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { OpsServer } from './ops-server';

// Global: the edge reads whether the instance is draining without importing what the probes depend on.
@Global()
@Module({
  imports: [DatabaseModule, BrokerConnectionModule],
  controllers: [HealthController],
  providers: [DatabaseHealth, HealthService, GracefulShutdownService, OpsServer],
  exports: [HealthService, OpsServer],
})
export class HealthModule {}
