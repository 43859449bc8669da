import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { TOO_MANY_REQUESTS_MESSAGE } from './credential-throttler.guard';
import { AddressAllowance } from './address-allowance';
import { CredentialRateLimit } from './credential-rate-limit';
import { CredentialThrottlerGuard } from './credential-throttler.guard';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';
import { WriteRateLimit } from './write-limit';

@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => {
        const { windowMs, perCredential } = config.get('rateLimit', { infer: true });
        return {
          storage: new FixedWindowThrottlerStorage(),
          setHeaders: false,
          errorMessage: TOO_MANY_REQUESTS_MESSAGE,
          throttlers: [{ ttl: windowMs, limit: perCredential }],
        };
      },
    }),
  ],
  providers: [CredentialRateLimit, WriteRateLimit, AddressAllowance, CredentialThrottlerGuard],
  exports: [CredentialRateLimit, WriteRateLimit, AddressAllowance, CredentialThrottlerGuard],
})
export class RateLimitModule {}
