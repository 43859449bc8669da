import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule } from '../database/database.module';
import { EventsModule } from '../events/events.module';
import { DeliveryCount } from './delivery-count.entity';
import { DeliverySignals } from './delivery-signals';
import { DeliverySignalsRepository } from './delivery-signals.repository';
import { DeliverySignalsRetention } from './delivery-signals-retention';
import { DeliverySignalsRetentionRepository } from './delivery-signals-retention.repository';
import { PumpingBaseline } from './pumping-baseline.entity';
import { PumpingCount } from './pumping-count.entity';
import { PumpingRangeController } from './pumping-range.controller';
import { PumpingRange } from './pumping-range.entity';
import { PumpingRangeRepository } from './pumping-range.repository';
import { PumpingRangeService } from './pumping-range.service';

// Receipts and codes reported by the dispatcher: delivery rates for route, and the pumping guard per client and range.
@Module({
  imports: [TypeOrmModule.forFeature([DeliveryCount, PumpingCount, PumpingBaseline, PumpingRange]), DatabaseModule, EventsModule],
  controllers: [PumpingRangeController],
  providers: [
    DeliverySignals,
    DeliverySignalsRepository,
    PumpingRangeRepository,
    PumpingRangeService,
    DeliverySignalsRetentionRepository,
    DeliverySignalsRetention,
  ],
  exports: [DeliverySignals],
})
export class DeliverySignalsModule {}
