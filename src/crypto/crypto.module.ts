import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../config/app-config';
import { RequestDigests } from './request-digests';
import { SecretSealer } from './secret-sealer';

@Global()
@Module({
  providers: [
    {
      provide: SecretSealer,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => new SecretSealer(config.get('encryptionKeys', { infer: true })),
    },
    {
      provide: RequestDigests,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => new RequestDigests(config.get('encryptionKeys', { infer: true })),
    },
  ],
  exports: [SecretSealer, RequestDigests],
})
export class CryptoModule {}
