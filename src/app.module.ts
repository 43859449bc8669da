import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { ClockModule } from './common/clock';
import { AuditModule } from './audit/audit.module';
import { BrokerModule } from './broker/broker.module';
import { ClientModule } from './client/client.module';
import { CryptoModule } from './crypto/crypto.module';
import { RequestValidationPipe } from './common/validation/request-validation.pipe';
import { AppConfig } from './config/app-config';
import { DatabaseModule } from './database/database.module';
import { EventsModule } from './events/events.module';
import { KeyUsageModule, KeyUsageNotesModule } from './key-usage/key-usage.module';
import { HealthModule } from './health/health.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { EdgeModule } from './http/edge.module';
import { EnvelopeExceptionFilter } from './http/envelope-exception.filter';
import { MetricsModule } from './metrics/metrics.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { Loggers } from './logging/logger-options';
import { LoggingModule } from './logging/logging.module';
import { SmsConfigModule } from './sms-config/sms-config.module';
import { DispatchModule } from './dispatch/dispatch.module';
import { ProviderHostModule } from './provider-host/provider-host.module';

/** The whole application, from a configuration already loaded and checked and the loggers made from it (createApp). */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, loggers: Loggers): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] }),
        LoggingModule.forRoot(loggers),
        ClockModule,
        EdgeModule,
        RateLimitModule,
        AuthModule,
        DatabaseModule,
        CryptoModule,
        IdempotencyModule,
        KeyUsageNotesModule,
        KeyUsageModule,
        ClientModule,
        SmsConfigModule,
        ProviderHostModule,
        DispatchModule,
        BrokerModule,
        EventsModule,
        HealthModule,
        MetricsModule,
        AuditModule,
      ],
      providers: [
        { provide: APP_PIPE, useValue: new RequestValidationPipe({ allowPrivateHosts: config.allowPrivateProviderHosts }) },
        { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
      ],
    };
  }
}
