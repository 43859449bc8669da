import { Inject, Module } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { DatabaseModule } from '../database/database.module';
import { DeliverySignalsModule } from '../delivery-signals/delivery-signals.module';
import { ProviderHostModule } from '../provider-host/provider-host.module';
import { SmsConfigModule } from '../sms-config/sms-config.module';
import { DispatchController } from './dispatch.controller';
import { DispatchRepository } from './dispatch.repository';
import { DispatchService } from './dispatch.service';
import { RouteRepository } from './route.repository';
import { UNHEALTHY_SMS_CONFIGS_GAUGE, unhealthySmsConfigsGauge } from './dispatch.metrics';

@Module({
  imports: [DatabaseModule, SmsConfigModule, ProviderHostModule, DeliverySignalsModule],
  controllers: [DispatchController],
  providers: [
    DispatchService,
    DispatchRepository,
    RouteRepository,
    {
      provide: UNHEALTHY_SMS_CONFIGS_GAUGE,
      inject: [DispatchRepository],
      useFactory: (dispatch: DispatchRepository) => unhealthySmsConfigsGauge(() => dispatch.countUnhealthy()),
    },
  ],
})
export class DispatchModule {
  // Instantiates the gauge, which nothing else injects.
  constructor(@Inject(UNHEALTHY_SMS_CONFIGS_GAUGE) _unhealthy: Gauge) {}
}
