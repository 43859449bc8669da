import { Global, Module } from '@nestjs/common';
import { SecretKeyAdmission } from './secret-key-admission';

// Global: every feature's SecretKeyGuard and get-client's edge admit a key through the one SecretKeyAdmission.
@Global()
@Module({
  providers: [SecretKeyAdmission],
  exports: [SecretKeyAdmission],
})
export class AuthModule {}
