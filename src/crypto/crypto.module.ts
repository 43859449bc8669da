import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../config/app-config';
import { SecretSealer } from './secret-sealer';

@Global()
@Module({
  providers: [
    {
      provide: SecretSealer,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => new SecretSealer(config.get('encryptionKeys', { infer: true })),
    },
  ],
  exports: [SecretSealer],
})
export class CryptoModule {}
