import { Global, Module } from '@nestjs/common';
import { FailedLogins } from './failed-logins';

/** Global: the guards run in every feature module's context, and all of them count refusals in one place. */
@Global()
@Module({ providers: [FailedLogins], exports: [FailedLogins] })
export class AuthModule {}
