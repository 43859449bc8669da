import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerModule } from '@nestjs/throttler';
import { FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { TOO_MANY_REQUESTS_MESSAGE } from './credential-throttler.guard';
import { presentedCredential } from '../auth/credential-headers';
import { CredentialRateLimit } from './credential-rate-limit';
import { FixedWindowThrottlerStorage } from '../common/fixed-window.storage';

@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => {
        const { windowMs, perCredential, perIp } = config.get('rateLimit', { infer: true });
        return {
          storage: new FixedWindowThrottlerStorage(),
          setHeaders: false,
          errorMessage: TOO_MANY_REQUESTS_MESSAGE,
          throttlers: [
            {
              ttl: windowMs,
              limit: (context) =>
                presentedCredential(context.switchToHttp().getRequest<FastifyRequest>().headers) === undefined ? perIp : perCredential,
            },
          ],
        };
      },
    }),
  ],
  providers: [CredentialRateLimit],
  exports: [CredentialRateLimit],
})
export class RateLimitModule {}
