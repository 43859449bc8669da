import { Global, Module } from '@nestjs/common';
import { SecretKeyAdmission } from './secret-key-admission';

/** Global for SecretKeyAdmission: every feature's SecretKeyGuard and get-client's edge admit a key through the one. */
@Global()
@Module({
  providers: [SecretKeyAdmission],
  exports: [SecretKeyAdmission],
})
export class AuthModule {}
