import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule } from '../database/database.module';
import { DeliveryCount } from './delivery-count.entity';
import { DeliverySignals } from './delivery-signals';
import { DeliverySignalsRepository } from './delivery-signals.repository';
import { PumpingBaseline } from './pumping-baseline.entity';
import { PumpingCount } from './pumping-count.entity';
import { PumpingRange } from './pumping-range.entity';

// Receipts and codes reported by the dispatcher: delivery rates for route, and the pumping guard per client and range.
@Module({
  imports: [TypeOrmModule.forFeature([DeliveryCount, PumpingCount, PumpingBaseline, PumpingRange]), DatabaseModule],
  providers: [DeliverySignals, DeliverySignalsRepository],
  exports: [DeliverySignals],
})
export class DeliverySignalsModule {}
